// Fused LayerNorm: one launch, one block of 128 threads per row, x read from
// global memory once. The threads stride the row (coalesced), keep each value in
// shared memory, and add up both the sum and the sum of squares on the way in.
// The two sums are reduced together, by shuffles in each warp and one pair per
// warp through shared memory: one barrier per row gives the mean and the
// variance, E[x^2] - mean^2, where the mean first and then the variance about it
// takes two block reductions in sequence (two barriers, or four with the ones that
// guard the reused partials). Normalising reads the shared copy; each thread reads
// back only the columns it stored, so the copy needs no barrier of its own.
// The caveat: E[x^2] - mean^2 cancels when |mean| is much larger than the
// deviation (activations rarely are; layernorm_welford is the stable one-pass form).
// Rows wider than 48 KiB of shared memory read x a second time instead.
#include "kernels/harness.hpp"
#include "kernels/layernorm_common.cuh"
#include <cuda_runtime.h>

constexpr int kFusedBlock = 128;  // 4 warps per row
constexpr int kFusedWarps = kFusedBlock / 32;
constexpr int kFusedMaxCachedCols = 48 * 1024 / 4;

__global__ void layernorm_fused(const float* x, const float* gamma, const float* beta, float* out, float* mean,
                                float* rstd, int cols) {
  extern __shared__ float row_cache[];  // cols floats when `cached`
  __shared__ float part_sum[kFusedWarps], part_sq[kFusedWarps];
  const int row = blockIdx.x, lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const float* xr = x + size_t(row) * cols;
  float* outr = out + size_t(row) * cols;
  const bool cached = cols <= kFusedMaxCachedCols;

  float sum = 0.0f, sq = 0.0f;
  for (int j = threadIdx.x; j < cols; j += blockDim.x) {
    const float v = xr[j];  // the only global read of x when cached
    if (cached) row_cache[j] = v;
    sum += v;
    sq += v * v;
  }
  sum = layernorm::warp_sum(sum);
  sq = layernorm::warp_sum(sq);
  if (lane == 0) part_sum[warp] = sum, part_sq[warp] = sq;
  __syncthreads();  // the one barrier: every warp's pair is written before anyone adds them
  sum = 0.0f, sq = 0.0f;
  for (int w = 0; w < kFusedWarps; ++w) sum += part_sum[w], sq += part_sq[w];
  const float mu = sum / cols;
  const float rs = rsqrtf(fmaxf(sq / cols - mu * mu, 0.0f) + kLayerNormEps);

  for (int j = threadIdx.x; j < cols; j += blockDim.x)
    outr[j] = ((cached ? row_cache[j] : xr[j]) - mu) * rs * gamma[j] + beta[j];
  if (threadIdx.x == 0) mean[row] = mu, rstd[row] = rs;
}

namespace {
void launch(const float* x, const float* gamma, const float* beta, float* out, float* mean, float* rstd, int rows,
            int cols) {
  const size_t shared = cols <= kFusedMaxCachedCols ? cols * sizeof(float) : 0;
  layernorm_fused<<<rows, kFusedBlock, shared>>>(x, gamma, beta, out, mean, rstd, cols);
}

simt::kernels::Outputs run(const simt::kernels::Params& p) { return layernorm::run(p, launch); }

simt::kernels::Registration reg({"layernorm_fused",
                                 "LayerNorm, 1 launch, a block per row: x read once into shared memory, one barrier",
                                 layernorm::params(), run, layernorm::check});
}  // namespace
