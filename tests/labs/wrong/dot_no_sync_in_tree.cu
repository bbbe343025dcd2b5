// Lab 05 without the barrier between the steps of the tree: each step reads sums the
// step before wrote (at half = 64, thread 0 reads sum[64], which thread 64 of warp 2
// wrote), with nothing ordering the write before the read. The race detector stops the
// launch at the first such pair, so the outputs are never compared.
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
  }
  // One thread writes the block's result: one global write per block.
  if (t == 0) partial[blockIdx.x] = sum[0];
}

void launch_dot(const float* a, const float* b, float* partial, int n) {
  dot<<<lab::blocks_for(n, kDotThreads), kDotThreads>>>(a, b, partial, n);
}
