// LightSeq-style softmax (the pattern of LightSeq's attention softmax kernel): one block
// per row, and the row lives in registers. Each of the block's 128 threads keeps
// kPerThread values, columns t, t + 128, t + 256, ... (coalesced: a warp's load is 128
// consecutive bytes), with kPerThread a compile-time constant the launcher picks from
// cols (1, 2, 4, ..., 32: the smallest that covers the row), so every loop unrolls and
// the values never leave registers. Then, as LightSeq does, two block reductions:
// the row max; expf(x - max) once per value, kept in its register; the row sum; and
// y = value / sum written once.
// Against softmax_block_per_row: the same global traffic (x read once, y written once)
// without the shared copy of the row (shared traffic is only the 2 x 4 warp partials),
// and one expf per value instead of two (the online pair computes one on the way in,
// the output another). The price: one barrier more per row, and the row length is
// compiled in: rows wider than 128 x 32 = 4096 columns are refused (LightSeq's
// launcher likewise dispatches on the length and supports a fixed set).
#include "kernels/harness.hpp"
#include "kernels/softmax_common.cuh"
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

constexpr int kLightseqBlock = 128;  // 4 warps per row
constexpr int kLightseqWarps = kLightseqBlock / 32;
constexpr int kLightseqMaxPerThread = 32;

// The block's reduction of one value per thread: a shuffle tree in each warp, the
// warps' results through `partial` (one barrier), then every thread combines them.
template <class Op>
__device__ float block_reduce(float v, float* partial, Op op) {
  for (int offset = 16; offset > 0; offset /= 2) v = op(v, __shfl_xor_sync(0xffffffffu, v, offset));
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v;
  __syncthreads();  // every warp's partial is written before anyone reads them
  v = partial[0];
  for (int w = 1; w < kLightseqWarps; ++w) v = op(v, partial[w]);
  return v;
}

template <int kPerThread>
__global__ void softmax_lightseq(const float* x, float* y, int cols, bool causal) {
  // Two partial arrays: the sum's partials are written while slow warps may still read
  // the max's, so they must not share one array (or a third barrier would be needed).
  __shared__ float max_partial[kLightseqWarps], sum_partial[kLightseqWarps];
  const int row = blockIdx.x;
  const float* xr = x + size_t(row) * cols;
  float* yr = y + size_t(row) * cols;
  const int visible = softmax::visible_cols(row, cols, causal);

  float v[kPerThread];
  float m = -INFINITY;
#pragma unroll
  for (int i = 0; i < kPerThread; ++i) {
    const int j = threadIdx.x + i * kLightseqBlock;
    v[i] = j < visible ? xr[j] : -INFINITY;  // masked and past-the-end columns weigh 0
    m = fmaxf(m, v[i]);
  }
  m = block_reduce(m, max_partial, [](float a, float b) { return fmaxf(a, b); });

  float s = 0.0f;
#pragma unroll
  for (int i = 0; i < kPerThread; ++i) {
    v[i] = expf(v[i] - m);  // expf(-inf) = 0: masked columns add nothing and come out 0
    s += v[i];
  }
  s = block_reduce(s, sum_partial, [](float a, float b) { return a + b; });

  const float inv = 1.0f / s;
#pragma unroll
  for (int i = 0; i < kPerThread; ++i) {
    const int j = threadIdx.x + i * kLightseqBlock;
    if (j < cols) yr[j] = v[i] * inv;
  }
}

namespace {
template <int kPerThread>
void launch_with(const float* x, float* y, int rows, int cols, bool causal) {
  if constexpr (kPerThread > kLightseqMaxPerThread) {
    throw std::invalid_argument("softmax_lightseq keeps a row in registers, at most " +
                                std::to_string(kLightseqBlock * kLightseqMaxPerThread) + " columns; --cols " +
                                std::to_string(cols) + " needs softmax_block_per_row");
  } else if (cols > kPerThread * kLightseqBlock) {
    launch_with<kPerThread * 2>(x, y, rows, cols, causal);
  } else {
    softmax_lightseq<kPerThread><<<rows, kLightseqBlock>>>(x, y, cols, causal);
  }
}

void launch(const float* x, float* y, int rows, int cols, bool causal) { launch_with<1>(x, y, rows, cols, causal); }

simt::kernels::Outputs run(const simt::kernels::Params& p) { return softmax::run(p, launch); }

simt::kernels::Registration reg({"softmax_lightseq",
                                 "row softmax, LightSeq-style: a block per row held in registers, expf once per value",
                                 softmax::params(), run, softmax::check});
}  // namespace
