// Lab 05 — dot product with a block reduction: a solution (labs/05-dot/README.md).
#include "lab.cuh"

__global__ void dot(const float* a, const float* b, float* partial, int n) {
  __shared__ float sum[kDotThreads];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  // One product per thread; 0 past the end, so the tree below adds only real terms and
  // every thread still takes part in every barrier.
  sum[t] = i < n ? a[i] * b[i] : 0.0f;
  __syncthreads();
  // Tree reduction: each step halves the live threads, which add the upper half of the
  // array onto the lower. The barrier ends each step before the next reads its results.
  for (int half = kDotThreads / 2; half > 0; half /= 2) {
    if (t < half) sum[t] += sum[t + half];
    __syncthreads();
  }
  // One thread writes the block's result: one global write per block.
  if (t == 0) partial[blockIdx.x] = sum[0];
}

void launch_dot(const float* a, const float* b, float* partial, int n) {
  dot<<<lab::blocks_for(n, kDotThreads), kDotThreads>>>(a, b, partial, n);
}
