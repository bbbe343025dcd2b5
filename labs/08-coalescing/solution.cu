// Lab 08 — coalescing: a solution (labs/08-coalescing/README.md).
// threadIdx.x walks the columns, so a warp's 32 lanes read 32 consecutive floats of
// one row: 128 bytes, 4 sectors per request (loads and stores alike).
#include "lab.cuh"

__global__ void scale(const float* in, float* out, int rows, int cols, float alpha) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) out[row * cols + col] = alpha * in[row * cols + col];
}

void launch_scale(const float* in, float* out, int rows, int cols, float alpha) {
  const dim3 threads(32, 8);
  const dim3 blocks(lab::blocks_for(cols, threads.x), lab::blocks_for(rows, threads.y));
  scale<<<blocks, threads>>>(in, out, rows, cols, alpha);
}
