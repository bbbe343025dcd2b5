// Softmax with one block per row, one launch, x read from global memory once:
// the block's 128 threads stride the row (coalesced), storing each value in
// shared memory as they fold it into an online (max, sum) pair. The pairs are
// merged by shuffles within each warp, one pair per warp goes through shared
// memory (one barrier), and every thread merges the 4 warp pairs itself. y is
// then computed from the shared copy: each thread reads back only the columns it
// stored, so that copy needs no barrier of its own.
// The copy takes cols * 4 bytes of dynamic shared memory; rows wider than
// kMaxCachedCols (48 KiB, the default limit per block) read x a second time
// instead, as softmax_warp_per_row does.
// Against softmax_warp_per_row: half the global load sectors, 4x the threads per
// row (a long row is spread over more lanes), and the price is shared traffic
// and one barrier per row.
#include "kernels/harness.hpp"
#include "kernels/softmax_common.cuh"
#include <cuda_runtime.h>

constexpr int kSoftmaxBlock = 128;  // 4 warps per row
constexpr int kSoftmaxWarps = kSoftmaxBlock / 32;
constexpr int kMaxCachedCols = 48 * 1024 / 4;

__global__ void softmax_block_per_row(const float* x, float* y, int cols, bool causal) {
  extern __shared__ float row_cache[];  // cols floats when `cached`, else none
  __shared__ float warp_m[kSoftmaxWarps], warp_s[kSoftmaxWarps];
  const int row = blockIdx.x, lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const float* xr = x + size_t(row) * cols;
  float* yr = y + size_t(row) * cols;
  const int visible = softmax::visible_cols(row, cols, causal);
  const bool cached = cols <= kMaxCachedCols;

  float m = -INFINITY, s = 0.0f;
  for (int j = threadIdx.x; j < visible; j += blockDim.x) {
    const float v = xr[j];  // the only global read of x when cached
    if (cached) row_cache[j] = v;
    softmax::online_add(m, s, v);
  }
  for (int offset = 16; offset > 0; offset /= 2)
    softmax::online_merge(m, s, __shfl_xor_sync(0xffffffffu, m, offset), __shfl_xor_sync(0xffffffffu, s, offset));
  if (lane == 0) warp_m[warp] = m, warp_s[warp] = s;
  __syncthreads();  // every warp's pair is in shared memory before anyone reads them
  m = warp_m[0], s = warp_s[0];
  for (int w = 1; w < kSoftmaxWarps; ++w) softmax::online_merge(m, s, warp_m[w], warp_s[w]);

  const float inv = 1.0f / s;
  for (int j = threadIdx.x; j < cols; j += blockDim.x)
    yr[j] = j < visible ? expf((cached ? row_cache[j] : xr[j]) - m) * inv : 0.0f;
}

namespace {
void launch(const float* x, float* y, int rows, int cols, bool causal) {
  const size_t shared = cols <= kMaxCachedCols ? cols * sizeof(float) : 0;
  softmax_block_per_row<<<rows, kSoftmaxBlock, shared>>>(x, y, cols, causal);
}

simt::kernels::Outputs run(const simt::kernels::Params& p) { return softmax::run(p, launch); }

simt::kernels::Registration reg({"softmax_block_per_row",
                                 "row softmax, 1 launch, a block per row: row kept in shared memory, x read once",
                                 softmax::params(), run, softmax::check});
}  // namespace
