// Fused LayerNorm backward (kernels/layernorm_common.cuh, layernorm_backward), llm.c's
// layernorm_backward_kernel shape made deterministic: two launches,
//   1. layernorm_backward_fused          a block of 128 threads per group of
//      kRowsPerBlock rows. The threads stride the columns: thread t owns columns t,
//      t + 128, ... for the whole kernel. Per row, each thread reads x and dy for its
//      columns once, keeps norm and dnorm = gamma * dy in shared memory, adds its share
//      of the two row sums and adds norm * dy and dy into the block's dgamma and dbeta
//      (shared, at its own columns: no other thread touches them, so no atomics and a
//      fixed order). One block reduction of the pair (warp shuffles, then one pair per
//      warp, one barrier) gives the row means; dx is written from the shared copy.
//      At the end the block writes its partial dgamma and dbeta to global memory.
//   2. layernorm_backward_fused_reduce   adds the blocks' partials in a fixed order: a
//      block of 8 warps per 32 columns, each warp a strided eighth of the blocks, then
//      the 8 warp sums through shared memory.
// Against layernorm_backward_naive: x and dy are read from global memory once
// (coalesced), gamma once per block, and every reduction runs in a fixed order, so the
// result is the same bits on every run and every GPU (llm.c adds the partials with
// float atomics, whose order is the scheduler's). The price: the partials, 2 * cols
// floats per block written and read back, and a barrier per row.
// Shared memory: 5 * cols floats (gamma, dgamma, dbeta, norm, dnorm) up to 2454
// columns; wider rows keep 3 * cols and read x and dy again for dx (up to 4090).
#include "kernels/harness.hpp"
#include "kernels/layernorm_common.cuh"
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

constexpr int kLnBwdBlock = 128;  // 4 warps
constexpr int kLnBwdWarps = kLnBwdBlock / 32;
constexpr int kRowsPerBlock = 8;  // 1024 rows: 128 blocks, about one per SM of an H200
constexpr int kLnBwdSharedFloats = 48 * 1024 / 4 - 4 * kLnBwdWarps;  // 48 KiB less the pairs

__global__ void layernorm_backward_fused(const float* x, const float* mean, const float* rstd, const float* gamma,
                                         const float* dy, float* dx, float* partial_dgamma, float* partial_dbeta,
                                         int rows, int cols, bool cached) {
  extern __shared__ float smem[];
  float* s_gamma = smem;                  // cols
  float* s_dgamma = smem + cols;          // cols
  float* s_dbeta = smem + 2 * cols;       // cols
  float* s_norm = smem + 3 * cols;        // cols, when cached
  float* s_dnorm = smem + 4 * cols;       // cols, when cached
  __shared__ float part_a[2][kLnBwdWarps], part_b[2][kLnBwdWarps];  // by row parity: one barrier per row
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int first = blockIdx.x * kRowsPerBlock, last = min(first + kRowsPerBlock, rows);

  // Every shared column below is read and written by its owner thread only.
  for (int j = threadIdx.x; j < cols; j += blockDim.x) s_gamma[j] = gamma[j], s_dgamma[j] = 0.0f, s_dbeta[j] = 0.0f;

  for (int i = first; i < last; ++i) {
    const float* xi = x + size_t(i) * cols;
    const float* dyi = dy + size_t(i) * cols;
    const float mu = mean[i], rs = rstd[i];
    float a = 0.0f, b = 0.0f;
    for (int j = threadIdx.x; j < cols; j += blockDim.x) {
      const float d = dyi[j];
      const float norm = (xi[j] - mu) * rs, dnorm = s_gamma[j] * d;
      if (cached) s_norm[j] = norm, s_dnorm[j] = dnorm;
      a += dnorm;
      b += dnorm * norm;
      s_dgamma[j] += norm * d;
      s_dbeta[j] += d;
    }
    a = layernorm::warp_sum(a);
    b = layernorm::warp_sum(b);
    const int parity = (i - first) % 2;
    if (lane == 0) part_a[parity][warp] = a, part_b[parity][warp] = b;
    __syncthreads();  // the row's pairs are in; the next row writes the other parity
    a = 0.0f, b = 0.0f;
    for (int w = 0; w < kLnBwdWarps; ++w) a += part_a[parity][w], b += part_b[parity][w];
    a = a / cols;
    b = b / cols;
    float* dxi = dx + size_t(i) * cols;
    for (int j = threadIdx.x; j < cols; j += blockDim.x) {
      const float norm = cached ? s_norm[j] : (xi[j] - mu) * rs;
      const float dnorm = cached ? s_dnorm[j] : s_gamma[j] * dyi[j];
      dxi[j] = (dnorm - a - norm * b) * rs;
    }
  }
  float* pg = partial_dgamma + size_t(blockIdx.x) * cols;
  float* pb = partial_dbeta + size_t(blockIdx.x) * cols;
  for (int j = threadIdx.x; j < cols; j += blockDim.x) pg[j] = s_dgamma[j], pb[j] = s_dbeta[j];
}

// A block of 8 warps per 32 columns: warp w adds partials w, w + 8, ... of lane's
// column, then warp 0 adds the 8 warp sums in order. A thread per column walking all
// blocks' partials alone would be a chain of `blocks` dependent loads per warp.
constexpr int kReduceWarps = 8;

__global__ void layernorm_backward_fused_reduce(const float* partial_dgamma, const float* partial_dbeta, float* dgamma,
                                                float* dbeta, int blocks, int cols) {
  __shared__ float sum_g[kReduceWarps][32], sum_b[kReduceWarps][32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, j = blockIdx.x * 32 + lane;
  float g = 0.0f, b = 0.0f;
  if (j < cols)
    for (int k = warp; k < blocks; k += kReduceWarps)
      g += partial_dgamma[size_t(k) * cols + j], b += partial_dbeta[size_t(k) * cols + j];
  sum_g[warp][lane] = g, sum_b[warp][lane] = b;
  __syncthreads();
  if (warp != 0 || j >= cols) return;
  g = 0.0f, b = 0.0f;
  for (int w = 0; w < kReduceWarps; ++w) g += sum_g[w][lane], b += sum_b[w][lane];
  dgamma[j] = g;
  dbeta[j] = b;
}

namespace {
void launch(const float* x, const float* mean, const float* rstd, const float* gamma, const float* dy, float* dx,
            float* dgamma, float* dbeta, int rows, int cols) {
  if (3 * cols > kLnBwdSharedFloats)
    throw std::invalid_argument("layernorm_backward_fused keeps 3 * cols floats in 48 KiB of shared memory: --cols " +
                                std::to_string(cols) + " is over 4090");
  const bool cached = 5 * cols <= kLnBwdSharedFloats;
  const int blocks = (rows + kRowsPerBlock - 1) / kRowsPerBlock;
  float *partial_dgamma, *partial_dbeta;
  cudaMalloc(&partial_dgamma, size_t(blocks) * cols * sizeof(float));
  cudaMalloc(&partial_dbeta, size_t(blocks) * cols * sizeof(float));
  const size_t shared = size_t(cached ? 5 : 3) * cols * sizeof(float);
  layernorm_backward_fused<<<blocks, kLnBwdBlock, shared>>>(x, mean, rstd, gamma, dy, dx, partial_dgamma,
                                                            partial_dbeta, rows, cols, cached);
  layernorm_backward_fused_reduce<<<(cols + 31) / 32, 32 * kReduceWarps>>>(partial_dgamma, partial_dbeta, dgamma,
                                                                           dbeta, blocks, cols);
  cudaFree(partial_dgamma);
  cudaFree(partial_dbeta);
}

simt::kernels::Outputs run(const simt::kernels::Params& p) { return layernorm_backward::run(p, launch); }

simt::kernels::Registration reg({"layernorm_backward_fused",
                                 "LayerNorm backward, llm.c style: dx and per-block dgamma/dbeta in one pass, "
                                 "then a fixed-order reduce (no atomics)",
                                 layernorm_backward::params(), run, layernorm_backward::check});
}  // namespace
