// A warp's re-reads (sim/count/warp_rereads.hpp, simt__ld_sectors_warp_reread.sum):
// global load sectors the same warp's previous load at the same instruction touched
// too. A thread walking its own row re-reads each 32-byte sector for eight floats; a
// warp walking a row together reads new sectors every time.
#include <cstdio>

constexpr int kCols = 64;

// A thread per row: 64 loads a warp, 32 sectors each (one a lane), 7 of 8 re-read.
__global__ void thread_per_row(const float* x, float* sums) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int j = 0; j < kCols; ++j) s += x[row * kCols + j];
  sums[row] = s;
}

// A warp per row: 2 loads a warp of 4 sectors each, none re-read.
__global__ void warp_per_row(const float* x, float* sums) {
  const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
  float s = 0.0f;
  for (int j = lane; j < kCols; j += 32) s += x[row * kCols + j];
  if (lane == 0) sums[row] = s;
}

int main() {
  const int rows = 64;
  float *x, *sums;
  cudaMalloc(&x, rows * kCols * sizeof(float));
  cudaMalloc(&sums, rows * sizeof(float));
  cudaMemset(x, 0, rows * kCols * sizeof(float));
  thread_per_row<<<1, rows>>>(x, sums);  // 2 warps
  warp_per_row<<<rows / 8, 256>>>(x, sums);
  float r;
  cudaMemcpy(&r, sums, sizeof r, cudaMemcpyDeviceToHost);
  printf("%g\n", r);
  return 0;
}
