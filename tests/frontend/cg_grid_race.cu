// grid.sync() orders global memory across blocks: a block reading what another
// wrote before the grid barrier is no race. Without the barrier the same accesses
// race, and the race check says so (the control, launched second).
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void neighbours(float* data, float* out, bool barrier) {
  cg::grid_group grid = cg::this_grid();
  const unsigned long long i = grid.thread_rank(), n = grid.size();
  data[i] = float(i);
  if (barrier) grid.sync();
  out[i] = data[(i + blockDim.x) % n];  // the next block's element
  if (barrier) grid.sync();
  data[i] = 0;  // overwrites what the previous block read before the barrier
}

int main() {
  const int blocks = 6, threads = 64, n = blocks * threads;
  float *data, *out;
  cudaMalloc(&data, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  bool barrier = true;
  void* args[] = {&data, &out, &barrier};
  cudaError_t e = cudaLaunchCooperativeKernel(neighbours, dim3(blocks), dim3(threads), args, 0, 0);
  float h[n];
  cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += h[i] != float((i + threads) % n);
  printf("with grid.sync(): %s, %d wrong\n", cudaGetErrorString(e), wrong);
  barrier = false;
  e = cudaLaunchCooperativeKernel(neighbours, dim3(blocks), dim3(threads), args, 0, 0);
  printf("without: %s\n", cudaGetErrorString(e));
  return 0;
}
