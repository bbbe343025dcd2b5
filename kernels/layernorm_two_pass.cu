// Two-pass LayerNorm in three launches, each a pass over x (llm.c's
// layernorm_forward_kernel2, with warps where it has blocks):
//   1. layernorm_two_pass_mean       a warp per row: lanes stride the row (coalesced),
//                                    the sum by __shfl_xor_sync, mean to global memory
//   2. layernorm_two_pass_rstd       a warp per row: x read again for the sum of squared
//                                    deviations about that mean (two passes: no
//                                    cancellation, unlike E[x^2] - mean^2)
//   3. layernorm_two_pass_normalise  one thread per element: x read a third time
// The temporaries go through global memory and each launch waits for the last.
#include "kernels/harness.hpp"
#include "kernels/layernorm_common.cuh"
#include <cuda_runtime.h>

__global__ void layernorm_two_pass_mean(const float* x, float* mean, int rows, int cols) {
  const int lane = threadIdx.x % 32, row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= rows) return;  // whole warps leave: the shuffles see 32 lanes
  const float* xr = x + size_t(row) * cols;
  float sum = 0.0f;
  for (int j = lane; j < cols; j += 32) sum += xr[j];
  sum = layernorm::warp_sum(sum);
  if (lane == 0) mean[row] = sum / cols;
}

__global__ void layernorm_two_pass_rstd(const float* x, const float* mean, float* rstd, int rows, int cols) {
  const int lane = threadIdx.x % 32, row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= rows) return;
  const float* xr = x + size_t(row) * cols;
  const float mu = mean[row];
  float sq = 0.0f;
  for (int j = lane; j < cols; j += 32) sq += (xr[j] - mu) * (xr[j] - mu);
  sq = layernorm::warp_sum(sq);
  if (lane == 0) rstd[row] = rsqrtf(sq / cols + kLayerNormEps);
}

__global__ void layernorm_two_pass_normalise(const float* x, const float* gamma, const float* beta, const float* mean,
                                             const float* rstd, float* out, int rows, int cols) {
  const size_t k = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= size_t(rows) * cols) return;
  const int i = int(k / cols), j = int(k % cols);
  out[k] = (x[k] - mean[i]) * rstd[i] * gamma[j] + beta[j];
}

namespace {
constexpr int kThreads = 256;

void launch(const float* x, const float* gamma, const float* beta, float* out, float* mean, float* rstd, int rows,
            int cols) {
  const int rows_per_block = kThreads / 32;
  const int row_blocks = (rows + rows_per_block - 1) / rows_per_block;
  const int elem_blocks = int((size_t(rows) * cols + kThreads - 1) / kThreads);
  layernorm_two_pass_mean<<<row_blocks, kThreads>>>(x, mean, rows, cols);
  layernorm_two_pass_rstd<<<row_blocks, kThreads>>>(x, mean, rstd, rows, cols);
  layernorm_two_pass_normalise<<<elem_blocks, kThreads>>>(x, gamma, beta, mean, rstd, out, rows, cols);
}

simt::kernels::Outputs run(const simt::kernels::Params& p) { return layernorm::run(p, launch); }

simt::kernels::Registration reg({"layernorm_two_pass",
                                 "LayerNorm in 3 launches (mean, variance about it, normalise): x read 3 times",
                                 layernorm::params(), run, layernorm::check});
}  // namespace
