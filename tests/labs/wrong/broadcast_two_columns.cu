// Lab 03 with two columns per thread (j and j + 16): half the blocks in x, the right
// outputs, coalesced stores. But the store of the first element comes between the two
// reads of a[i], and out might point into a as far as clang knows, so a[i] is loaded
// twice: each thread reads `a` twice (and `b` twice, and writes `out` twice).
#include "lab.cuh"

__global__ void outer_sum(const float* a, const float* b, float* out, int rows, int cols) {
  const int j = blockIdx.x * 2 * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= rows) return;
  if (j < cols) out[i * cols + j] = a[i] + b[j];
  if (j + int(blockDim.x) < cols) out[i * cols + j + blockDim.x] = a[i] + b[j + blockDim.x];
}

void launch_outer_sum(const float* a, const float* b, float* out, int rows, int cols) {
  const dim3 threads(16, 16);
  const dim3 blocks(lab::blocks_for(cols, 2 * threads.x), lab::blocks_for(rows, threads.y));
  outer_sum<<<blocks, threads>>>(a, b, out, rows, cols);
}
