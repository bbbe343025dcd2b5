// Reduction 3 of Harris's sequence: sequential addressing. At step s the first
// s threads add the element s away; the stride halves each step. Active lanes
// are contiguous (whole warps, until s < 32) and a warp reads 32 consecutive
// words: no divergence and no bank conflicts. Half the threads still idle from
// the first step on, and the last five steps run in a single warp.
#include "kernels/harness.hpp"
#include "kernels/reduce_common.cuh"
#include <cuda_runtime.h>

__global__ void reduce_sequential(const float* in, float* out, int n) {
  extern __shared__ float partial[];
  const unsigned tid = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = 0.0f;
  if (i < n) x = in[i];
  partial[tid] = x;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

namespace {
simt::kernels::Outputs run(const simt::kernels::Params& p) {
  return reduce::run(p, reduce_sequential, reduce::one_per_thread);
}

simt::kernels::Registration reg({"reduce_sequential",
                                 "vector sum, sequential addressing (tid < s): no divergence, no bank conflicts",
                                 reduce::params(), run, reduce::check});
}  // namespace
