// Reduction 1 of Harris's sequence: interleaved addressing, divergent branch.
// At step s the threads whose index is a multiple of 2s add the element s
// away. The working threads are spread over every warp, so each warp keeps
// issuing instructions for a few lanes: at s = 1 half of each warp's lanes are
// idle, at s = 16 all but one. Few active lanes per warp instruction is the cost.
#include "kernels/harness.hpp"
#include "kernels/reduce_common.cuh"
#include <cuda_runtime.h>

__global__ void reduce_interleaved_divergent(const float* in, float* out, int n) {
  extern __shared__ float partial[];
  const unsigned tid = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = 0.0f;  // past the end: the identity of +
  if (i < n) x = in[i];
  partial[tid] = x;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

namespace {
simt::kernels::Outputs run(const simt::kernels::Params& p) {
  return reduce::run(p, reduce_interleaved_divergent, reduce::one_per_thread);
}

simt::kernels::Registration reg({"reduce_interleaved_divergent",
                                 "vector sum, interleaved addressing with tid % (2s) == 0: divergent warps",
                                 reduce::params(), run, reduce::check});
}  // namespace
