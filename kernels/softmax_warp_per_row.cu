// Softmax with one warp per row, one launch, shuffles only: the 32 lanes stride
// the row (lane l reads columns l, l + 32, ...: a warp's load is 128 consecutive
// bytes, 4 sectors), each keeps an online (max, sum) pair, and five
// __shfl_xor_sync steps merge the pairs so that every lane ends with the row's.
// No shared memory and no barrier: a warp needs neither to talk to itself.
// x is read twice, once for the statistics and once for y; the temporaries stay
// in registers. A block of 4 warps takes 4 rows.
#include "kernels/harness.hpp"
#include "kernels/softmax_common.cuh"
#include <cuda_runtime.h>

__global__ void softmax_warp_per_row(const float* x, float* y, int rows, int cols, bool causal) {
  const int lane = threadIdx.x % 32;
  const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= rows) return;  // a whole warp leaves together: the shuffles below see 32 lanes
  const float* xr = x + size_t(row) * cols;
  float* yr = y + size_t(row) * cols;
  const int visible = softmax::visible_cols(row, cols, causal);

  float m = -INFINITY, s = 0.0f;
  for (int j = lane; j < visible; j += 32) softmax::online_add(m, s, xr[j]);
  // Butterfly: after the step with offset o, each lane holds the pair of its 2o-lane group.
  for (int offset = 16; offset > 0; offset /= 2)
    softmax::online_merge(m, s, __shfl_xor_sync(0xffffffffu, m, offset), __shfl_xor_sync(0xffffffffu, s, offset));

  const float inv = 1.0f / s;
  for (int j = lane; j < cols; j += 32) yr[j] = j < visible ? expf(xr[j] - m) * inv : 0.0f;
}

namespace {
constexpr int kThreads = 128;  // 4 warps: 4 rows per block

void launch(const float* x, float* y, int rows, int cols, bool causal) {
  const int rows_per_block = kThreads / 32;
  softmax_warp_per_row<<<(rows + rows_per_block - 1) / rows_per_block, kThreads>>>(x, y, rows, cols, causal);
}

simt::kernels::Outputs run(const simt::kernels::Params& p) { return softmax::run(p, launch); }

simt::kernels::Registration reg({"softmax_warp_per_row",
                                 "row softmax, 1 launch, a warp per row: coalesced, __shfl_xor_sync only, x read twice",
                                 softmax::params(), run, softmax::check});
}  // namespace
