// Lab 03 — broadcast: a solution (labs/03-broadcast/README.md).
#include "lab.cuh"

__global__ void outer_sum(const float* a, const float* b, float* out, int rows, int cols) {
  // x picks the column j, so a warp's stores to out are consecutive floats; the 16 lanes
  // that share a row all read the same a[i], which costs one sector, not sixteen.
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < rows && j < cols) out[i * cols + j] = a[i] + b[j];
}

void launch_outer_sum(const float* a, const float* b, float* out, int rows, int cols) {
  const dim3 threads(16, 16);
  const dim3 blocks(lab::blocks_for(cols, threads.x), lab::blocks_for(rows, threads.y));
  outer_sum<<<blocks, threads>>>(a, b, out, rows, cols);
}
