// Softmax backward with one warp per row, one launch (kernels/softmax_common.cuh,
// softmax_backward): the 32 lanes stride the row (lane l takes columns l, l + 32, ...:
// a warp's load is 128 consecutive bytes, 4 sectors), each adds up its share of
// dy * y, five __shfl_xor_sync steps give every lane the row's dot product, and the
// same lanes then write dx = y * (dy - dot) for their columns, reading y and dy a
// second time (from cache on a GPU: the DRAM estimate counts them once).
// Against softmax_backward_naive: coalesced loads (4 sectors per request, not 32),
// one launch fewer, and the row dot never leaves a register. Under the causal mask the
// lanes read only the visible columns and write 0 for the others.
#include "kernels/harness.hpp"
#include "kernels/softmax_common.cuh"
#include <cuda_runtime.h>

__global__ void softmax_backward_warp_per_row(const float* y, const float* dy, float* dx, int rows, int cols,
                                              bool causal) {
  const int lane = threadIdx.x % 32;
  const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= rows) return;  // a whole warp leaves together: the shuffles below see 32 lanes
  const float* yr = y + size_t(row) * cols;
  const float* dyr = dy + size_t(row) * cols;
  float* dxr = dx + size_t(row) * cols;
  const int visible = softmax::visible_cols(row, cols, causal);

  float dot = 0.0f;
  for (int j = lane; j < visible; j += 32) dot += dyr[j] * yr[j];
  for (int offset = 16; offset > 0; offset /= 2) dot += __shfl_xor_sync(0xffffffffu, dot, offset);

  for (int j = lane; j < cols; j += 32) dxr[j] = j < visible ? yr[j] * (dyr[j] - dot) : 0.0f;
}

namespace {
constexpr int kThreads = 128;  // 4 warps: 4 rows per block

void launch(const float* y, const float* dy, float* dx, int rows, int cols, bool causal) {
  const int rows_per_block = kThreads / 32;
  softmax_backward_warp_per_row<<<(rows + rows_per_block - 1) / rows_per_block, kThreads>>>(y, dy, dx, rows, cols,
                                                                                           causal);
}

simt::kernels::Outputs run(const simt::kernels::Params& p) { return softmax_backward::run(p, launch); }

simt::kernels::Registration reg({"softmax_backward_warp_per_row",
                                 "softmax backward, 1 launch, a warp per row: coalesced, dot(dy, y) by __shfl_xor_sync",
                                 softmax_backward::params(), run, softmax_backward::check});
}  // namespace
