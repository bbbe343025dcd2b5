// Naive softmax: three kernels, each a pass over x, with the row max and the row
// sum going through global temporaries (llm.c's softmax_forward_kernel1, split up):
//   1. softmax_naive_max        one thread per row: max over the row's visible columns
//   2. softmax_naive_sum        one thread per row: sum of exp(x - max)
//   3. softmax_naive_normalise  one thread per element: y = exp(x - max) / sum
// In 1 and 2 neighbouring lanes walk neighbouring rows, cols floats apart: every
// lane's load is a sector of its own (32 sectors per request, 8x what the bytes
// need). 3 is coalesced. x is read three times, exp computed twice per element.
#include "kernels/harness.hpp"
#include "kernels/softmax_common.cuh"
#include <cuda_runtime.h>

__global__ void softmax_naive_max(const float* x, float* row_max, int rows, int cols, bool causal) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const int visible = softmax::visible_cols(i, cols, causal);
  float m = -INFINITY;
  for (int j = 0; j < visible; ++j) m = fmaxf(m, x[size_t(i) * cols + j]);
  row_max[i] = m;
}

__global__ void softmax_naive_sum(const float* x, const float* row_max, float* row_sum, int rows, int cols,
                                  bool causal) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const int visible = softmax::visible_cols(i, cols, causal);
  const float m = row_max[i];
  float s = 0.0f;
  for (int j = 0; j < visible; ++j) s += expf(x[size_t(i) * cols + j] - m);
  row_sum[i] = s;
}

__global__ void softmax_naive_normalise(const float* x, const float* row_max, const float* row_sum, float* y, int rows,
                                        int cols, bool causal) {
  const size_t k = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= size_t(rows) * cols) return;
  const int i = int(k / cols), j = int(k % cols);
  // Masked columns are exactly 0 and need no load.
  y[k] = j < softmax::visible_cols(i, cols, causal) ? expf(x[k] - row_max[i]) / row_sum[i] : 0.0f;
}

namespace {
constexpr int kThreads = 256;

void launch(const float* x, float* y, int rows, int cols, bool causal) {
  float *row_max, *row_sum;
  cudaMalloc(&row_max, rows * sizeof(float));
  cudaMalloc(&row_sum, rows * sizeof(float));
  const int row_blocks = (rows + kThreads - 1) / kThreads;
  const int elem_blocks = int((size_t(rows) * cols + kThreads - 1) / kThreads);
  softmax_naive_max<<<row_blocks, kThreads>>>(x, row_max, rows, cols, causal);
  softmax_naive_sum<<<row_blocks, kThreads>>>(x, row_max, row_sum, rows, cols, causal);
  softmax_naive_normalise<<<elem_blocks, kThreads>>>(x, row_max, row_sum, y, rows, cols, causal);
  cudaFree(row_max);
  cudaFree(row_sum);
}

simt::kernels::Outputs run(const simt::kernels::Params& p) { return softmax::run(p, launch); }

simt::kernels::Registration reg({"softmax_naive",
                                 "row softmax in 3 launches (max, sum of exp, normalise), a thread per row: x read 3 times",
                                 softmax::params(), run, softmax::check});
}  // namespace
