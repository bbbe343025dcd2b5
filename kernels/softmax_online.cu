// Online softmax: the row max and the sum of exp in one pass (Milakov &
// Gimelshein, "Online normalizer calculation for softmax", 2018). The running sum
// is kept relative to the running max and rescaled by exp(old - new) when the max
// grows, so one read of x gives both. Two launches:
//   1. softmax_online_stats      one thread per row: (max, sum) in one pass
//   2. softmax_online_normalise  one thread per element: y = exp(x - max) / sum
// Against softmax_naive: one launch and one uncoalesced pass over x fewer (x read
// twice, not three times); still a thread per row in the stats pass, so its loads
// are still 32 sectors per request. The rescale costs an extra expf only when a
// row's max grows.
#include "kernels/harness.hpp"
#include "kernels/softmax_common.cuh"
#include <cuda_runtime.h>

__global__ void softmax_online_stats(const float* x, float* row_max, float* row_sum, int rows, int cols, bool causal) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const int visible = softmax::visible_cols(i, cols, causal);
  float m = -INFINITY, s = 0.0f;
  for (int j = 0; j < visible; ++j) softmax::online_add(m, s, x[size_t(i) * cols + j]);
  row_max[i] = m;
  row_sum[i] = s;
}

__global__ void softmax_online_normalise(const float* x, const float* row_max, const float* row_sum, float* y,
                                         int rows, int cols, bool causal) {
  const size_t k = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= size_t(rows) * cols) return;
  const int i = int(k / cols), j = int(k % cols);
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
  softmax_online_stats<<<row_blocks, kThreads>>>(x, row_max, row_sum, rows, cols, causal);
  softmax_online_normalise<<<elem_blocks, kThreads>>>(x, row_max, row_sum, y, rows, cols, causal);
  cudaFree(row_max);
  cudaFree(row_sum);
}

simt::kernels::Outputs run(const simt::kernels::Params& p) { return softmax::run(p, launch); }

simt::kernels::Registration reg({"softmax_online",
                                 "row softmax in 2 launches: online (max, sum) in one pass per row, then normalise",
                                 softmax::params(), run, softmax::check});
}  // namespace
