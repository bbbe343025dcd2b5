// Lab 05 — dot product with a block reduction. Read labs/05-dot/README.md
// (simt lab show dot). Check your work: simt lab check dot dot.cu
#include "lab.cuh"

__global__ void dot(const float* a, const float* b, float* partial, int n) {
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  // TODO 1: a __shared__ array of kDotThreads floats; each thread stores its product
  //         a[i] * b[i] there (0 when i >= n), then a barrier.
  // TODO 2: a tree reduction: for half = kDotThreads / 2, then / 4, ... down to 1, the
  //         threads t < half add element t + half onto element t; a barrier after
  //         each step, reached by every thread of the block.
  // TODO 3: one thread writes the block's sum to partial[blockIdx.x].
  //
  // As it is, every thread writes its own product over the block's single slot: the
  // last writer wins, and the block's result is one product, not the sum.
  if (i < n) partial[blockIdx.x] = a[i] * b[i];
}

void launch_dot(const float* a, const float* b, float* partial, int n) {
  dot<<<lab::blocks_for(n, kDotThreads), kDotThreads>>>(a, b, partial, n);
}
