// Naive softmax backward, two launches (kernels/softmax_common.cuh, softmax_backward):
//   1. softmax_backward_naive_dot  one thread per row: dot[i] = sum_j dy[i][j] * y[i][j]
//   2. softmax_backward_naive_dx   one thread per element: dx = y * (dy - dot[i])
// As in softmax_naive, neighbouring lanes of the first kernel walk neighbouring rows,
// cols floats apart: every lane's load is a sector of its own (32 sectors per
// request). y and dy are read twice (once per launch) and the row dots go through a
// global temporary. Under the causal mask only the visible columns are read; masked
// ones get dx = 0 without a load.
#include "kernels/harness.hpp"
#include "kernels/softmax_common.cuh"
#include <cuda_runtime.h>

__global__ void softmax_backward_naive_dot(const float* y, const float* dy, float* dot, int rows, int cols,
                                           bool causal) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const int visible = softmax::visible_cols(i, cols, causal);
  float s = 0.0f;
  for (int j = 0; j < visible; ++j) s += dy[size_t(i) * cols + j] * y[size_t(i) * cols + j];
  dot[i] = s;
}

__global__ void softmax_backward_naive_dx(const float* y, const float* dy, const float* dot, float* dx, int rows,
                                          int cols, bool causal) {
  const size_t k = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= size_t(rows) * cols) return;
  const int row = int(k / cols), col = int(k % cols);
  dx[k] = col < softmax::visible_cols(row, cols, causal) ? y[k] * (dy[k] - dot[row]) : 0.0f;
}

namespace {
constexpr int kThreads = 256;

void launch(const float* y, const float* dy, float* dx, int rows, int cols, bool causal) {
  float* dot;
  cudaMalloc(&dot, rows * sizeof(float));
  const int row_blocks = (rows + kThreads - 1) / kThreads;
  const int elem_blocks = int((size_t(rows) * cols + kThreads - 1) / kThreads);
  softmax_backward_naive_dot<<<row_blocks, kThreads>>>(y, dy, dot, rows, cols, causal);
  softmax_backward_naive_dx<<<elem_blocks, kThreads>>>(y, dy, dot, dx, rows, cols, causal);
  cudaFree(dot);
}

simt::kernels::Outputs run(const simt::kernels::Params& p) { return softmax_backward::run(p, launch); }

simt::kernels::Registration reg({"softmax_backward_naive",
                                 "softmax backward in 2 launches: row dot(dy, y) a thread per row, then dx per element",
                                 softmax_backward::params(), run, softmax_backward::check});
}  // namespace
