// Reduction 2 of Harris's sequence: interleaved addressing, strided index.
// The working threads are now the first ones (thread t handles element 2st),
// so whole warps retire and the survivors are fully active: no divergence.
// But a warp's lanes touch words 2s apart, and words 32 apart share a bank:
// at s = 1 two lanes meet in each bank (2 wavefronts), at s = 2 four, up to
// 16-way conflicts. Bank conflicts are the cost.
#include "kernels/harness.hpp"
#include "kernels/reduce_common.cuh"
#include <cuda_runtime.h>

__global__ void reduce_interleaved_strided(const float* in, float* out, int n) {
  extern __shared__ float partial[];
  const unsigned tid = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = 0.0f;
  if (i < n) x = in[i];
  partial[tid] = x;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    const unsigned index = 2 * s * tid;
    if (index < blockDim.x) partial[index] += partial[index + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

namespace {
simt::kernels::Outputs run(const simt::kernels::Params& p) {
  return reduce::run(p, reduce_interleaved_strided, reduce::one_per_thread);
}

simt::kernels::Registration reg({"reduce_interleaved_strided",
                                 "vector sum, interleaved addressing with index 2*s*tid: shared bank conflicts",
                                 reduce::params(), run, reduce::check});
}  // namespace
