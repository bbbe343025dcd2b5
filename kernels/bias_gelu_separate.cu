// Bias + GELU as two kernels (kernels/fused_common.cuh, fused_gelu), the way an
// unfused framework runs them, one operator per launch:
//   1. bias_gelu_separate_bias  t = x + bias[col]
//   2. bias_gelu_separate_gelu  y = gelu(t)
// The intermediate t goes to global memory and comes back: per element 4 bytes
// written by the first and 4 read by the second, on top of x, bias and y. Each
// thread takes 4 consecutive elements (float4).
#include "kernels/fused_common.cuh"
#include "kernels/harness.hpp"
#include <cuda_runtime.h>

__global__ void bias_gelu_separate_bias(const float* x, const float* bias, float* t, int rows, int cols) {
  const size_t n = size_t(rows) * cols, base = 4 * (size_t(blockIdx.x) * blockDim.x + threadIdx.x);
  if (base >= n) return;
  if (fused::vec4(base, n, cols)) {
    const float4 v = fused::load4(x, base), b = fused::load4(bias, base % cols);
    fused::store4(t, base, make_float4(v.x + b.x, v.y + b.y, v.z + b.z, v.w + b.w));
  } else {
    for (size_t e = base; e < base + 4 && e < n; ++e) t[e] = x[e] + bias[e % cols];
  }
}

__global__ void bias_gelu_separate_gelu(const float* t, float* y, int rows, int cols) {
  const size_t n = size_t(rows) * cols, base = 4 * (size_t(blockIdx.x) * blockDim.x + threadIdx.x);
  if (base >= n) return;
  using fused_gelu::gelu;
  if (base + 4 <= n) {
    const float4 v = fused::load4(t, base);
    fused::store4(y, base, make_float4(gelu(v.x), gelu(v.y), gelu(v.z), gelu(v.w)));
  } else {
    for (size_t e = base; e < base + 4 && e < n; ++e) y[e] = gelu(t[e]);
  }
}

namespace {
void launch(const float* x, const float* bias, float* y, int rows, int cols) {
  const size_t n = size_t(rows) * cols;
  float* t;
  cudaMalloc(&t, n * sizeof(float));
  bias_gelu_separate_bias<<<fused::blocks_for(n), fused::kThreads>>>(x, bias, t, rows, cols);
  bias_gelu_separate_gelu<<<fused::blocks_for(n), fused::kThreads>>>(t, y, rows, cols);
  cudaFree(t);
}

simt::kernels::Outputs run(const simt::kernels::Params& p) { return fused_gelu::run(p, launch); }

simt::kernels::Registration reg({"bias_gelu_separate",
                                 "bias + GELU (tanh) in 2 launches: x + bias written to global memory, read back",
                                 fused_gelu::params(), run, fused_gelu::check});
}  // namespace
