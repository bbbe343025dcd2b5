// Softmax backward, LightSeq-style (the pattern of LightSeq's attention softmax
// backward): one warp per row, and each lane keeps its share of the row in registers,
// kPerLane values of y and of dy (columns lane, lane + 32, ...; coalesced), with kPerLane
// a compile-time constant the launcher picks from cols (1, 2, 4, ..., 32: the smallest
// that covers the row), so the loops unroll. The dot product is summed by
// __shfl_xor_sync and dx = y * (dy - dot) is computed from the registers.
// Against softmax_backward_warp_per_row: y and dy are read from global memory once, not
// twice (half the load requests and sectors; on a GPU the second read mostly hits L1,
// so the DRAM bytes are the same and the saving is in load instructions and L1 traffic).
// The price: the row length is compiled in, rows wider than 32 x 32 = 1024 columns are
// refused, as LightSeq supports a fixed set of lengths.
#include "kernels/harness.hpp"
#include "kernels/softmax_common.cuh"
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

constexpr int kMaxPerLane = 32;

template <int kPerLane>
__global__ void softmax_backward_lightseq(const float* y, const float* dy, float* dx, int rows, int cols,
                                          bool causal) {
  const int lane = threadIdx.x % 32;
  const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= rows) return;  // a whole warp leaves together: the shuffles below see 32 lanes
  const float* yr = y + size_t(row) * cols;
  const float* dyr = dy + size_t(row) * cols;
  float* dxr = dx + size_t(row) * cols;
  const int visible = softmax::visible_cols(row, cols, causal);

  float yv[kPerLane], dyv[kPerLane];
  float dot = 0.0f;
#pragma unroll
  for (int i = 0; i < kPerLane; ++i) {
    const int j = lane + 32 * i;
    yv[i] = j < visible ? yr[j] : 0.0f;
    dyv[i] = j < visible ? dyr[j] : 0.0f;
    dot += dyv[i] * yv[i];
  }
  for (int offset = 16; offset > 0; offset /= 2) dot += __shfl_xor_sync(0xffffffffu, dot, offset);

#pragma unroll
  for (int i = 0; i < kPerLane; ++i) {
    const int j = lane + 32 * i;
    if (j < cols) dxr[j] = j < visible ? yv[i] * (dyv[i] - dot) : 0.0f;
  }
}

namespace {
constexpr int kThreads = 128;  // 4 warps: 4 rows per block

template <int kPerLane>
void launch_with(const float* y, const float* dy, float* dx, int rows, int cols, bool causal) {
  if constexpr (kPerLane > kMaxPerLane) {
    throw std::invalid_argument("softmax_backward_lightseq keeps a row in a warp's registers, at most " +
                                std::to_string(32 * kMaxPerLane) + " columns; --cols " + std::to_string(cols) +
                                " needs softmax_backward_warp_per_row");
  } else if (cols > 32 * kPerLane) {
    launch_with<kPerLane * 2>(y, dy, dx, rows, cols, causal);
  } else {
    const int rows_per_block = kThreads / 32;
    softmax_backward_lightseq<kPerLane>
        <<<(rows + rows_per_block - 1) / rows_per_block, kThreads>>>(y, dy, dx, rows, cols, causal);
  }
}

void launch(const float* y, const float* dy, float* dx, int rows, int cols, bool causal) {
  launch_with<1>(y, dy, dx, rows, cols, causal);
}

simt::kernels::Outputs run(const simt::kernels::Params& p) { return softmax_backward::run(p, launch); }

simt::kernels::Registration reg({"softmax_backward_lightseq",
                                 "softmax backward, LightSeq-style: a warp per row, y and dy kept in registers",
                                 softmax_backward::params(), run, softmax_backward::check});
}  // namespace
