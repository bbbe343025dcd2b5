// Warp-shuffle reduction: each warp sums its 32 values in registers with
// __shfl_down_sync (5 steps: lane l adds lane l + 16, + 8, ..., + 1), so no
// shared memory and no barrier is needed inside a warp. Only one value per warp
// goes through shared memory, and the first warp sums those the same way.
// blockDim.x must be a multiple of 32.
#include "kernels/harness.hpp"
#include "kernels/reduce_common.cuh"
#include <cuda_runtime.h>

// After the call lane 0 holds the sum of the 32 lanes' values.
__device__ inline float warp_sum(float x) {
  for (int offset = 16; offset > 0; offset /= 2) x += __shfl_down_sync(0xffffffffu, x, offset);
  return x;
}

__global__ void reduce_warp_shuffle(const float* in, float* out, int n) {
  extern __shared__ float warp_sums[];  // blockDim.x / 32 floats
  const unsigned tid = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = tid % 32, warp = tid / 32;
  float x = 0.0f;
  if (i < n) x = in[i];
  x = warp_sum(x);
  if (lane == 0) warp_sums[warp] = x;
  __syncthreads();
  if (warp == 0) {
    x = 0.0f;
    if (lane < blockDim.x / 32) x = warp_sums[lane];
    x = warp_sum(x);
    if (lane == 0) out[blockIdx.x] = x;
  }
}

namespace {
int one_per_warp(int block) { return block / 32; }

simt::kernels::Outputs run(const simt::kernels::Params& p) {
  return reduce::run(p, reduce_warp_shuffle, one_per_warp);
}

simt::kernels::Registration reg({"reduce_warp_shuffle",
                                 "vector sum, __shfl_down_sync within warps, one shared value per warp",
                                 reduce::params(), run, reduce::check});
}  // namespace
