// Welford LayerNorm: one launch, one warp per row. Each lane keeps Welford's
// running (count, mean, M2) over the columns it strides (lane l: l, l + 32, ...),
// so the mean and the variance come from one pass over x and stay stable (no
// E[x^2] - mean^2 cancellation); five __shfl_xor_sync steps merge the lanes' triples
// by Chan et al.'s formula, and every lane then normalises its columns, reading x
// a second time. Against layernorm_two_pass: 1 launch instead of 3, x read twice
// instead of 3 times, no temporaries in global memory; the price is a division per
// element in the update (FDiv in the counters).
#include "kernels/harness.hpp"
#include "kernels/layernorm_common.cuh"
#include <cuda_runtime.h>

// Merges the partial (nb, mb, m2b) into (n, m, m2): Chan, Golub and LeVeque (1979).
// A lane with no columns (n = 0: rows narrower than 32) adds nothing.
__device__ inline void welford_merge(float& n, float& m, float& m2, float nb, float mb, float m2b) {
  const float total = n + nb;
  if (total == 0.0f) return;
  const float delta = mb - m;
  m += delta * nb / total;
  m2 += m2b + delta * delta * n * nb / total;
  n = total;
}

__global__ void layernorm_welford(const float* x, const float* gamma, const float* beta, float* out, float* mean,
                                  float* rstd, int rows, int cols) {
  const int lane = threadIdx.x % 32, row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= rows) return;  // whole warps leave: the shuffles see 32 lanes
  const float* xr = x + size_t(row) * cols;
  float* outr = out + size_t(row) * cols;

  float n = 0.0f, m = 0.0f, m2 = 0.0f;
  for (int j = lane; j < cols; j += 32) {  // Welford's update: one read of each value
    const float v = xr[j];
    n += 1.0f;
    const float delta = v - m;
    m += delta / n;
    m2 += delta * (v - m);
  }
  for (int offset = 16; offset > 0; offset /= 2)
    welford_merge(n, m, m2, __shfl_xor_sync(0xffffffffu, n, offset), __shfl_xor_sync(0xffffffffu, m, offset),
                  __shfl_xor_sync(0xffffffffu, m2, offset));
  const float rs = rsqrtf(m2 / cols + kLayerNormEps);

  for (int j = lane; j < cols; j += 32) outr[j] = (xr[j] - m) * rs * gamma[j] + beta[j];
  if (lane == 0) mean[row] = m, rstd[row] = rs;
}

namespace {
constexpr int kThreads = 256;  // 8 warps: 8 rows per block

void launch(const float* x, const float* gamma, const float* beta, float* out, float* mean, float* rstd, int rows,
            int cols) {
  const int rows_per_block = kThreads / 32;
  layernorm_welford<<<(rows + rows_per_block - 1) / rows_per_block, kThreads>>>(x, gamma, beta, out, mean, rstd,
                                                                                 rows, cols);
}

simt::kernels::Outputs run(const simt::kernels::Params& p) { return layernorm::run(p, launch); }

simt::kernels::Registration reg({"layernorm_welford",
                                 "LayerNorm, 1 launch, a warp per row: Welford per lane + shuffle merge, x read twice",
                                 layernorm::params(), run, layernorm::check});
}  // namespace
