// Bias + dropout + residual as three kernels (kernels/fused_common.cuh,
// fused_dropout), one operator per launch:
//   1. bias_dropout_residual_separate_bias      t = x + bias[col]
//   2. bias_dropout_residual_separate_dropout   t = dropout(t): Philox4_32_10,
//                                               curand_init(seed, k, 0) per thread k
//   3. bias_dropout_residual_separate_residual  out = residual + t
// Two intermediates go to global memory and come back: per element 8 bytes written
// and 8 read on top of x, bias, residual and out. Each thread takes 4 consecutive
// elements (float4; one curand_uniform4 for the 4).
#include "kernels/fused_common.cuh"
#include "kernels/harness.hpp"
#include <cuda_runtime.h>
#include <curand_kernel.h>

__global__ void bias_dropout_residual_separate_bias(const float* x, const float* bias, float* t, int rows, int cols) {
  const size_t n = size_t(rows) * cols, base = 4 * (size_t(blockIdx.x) * blockDim.x + threadIdx.x);
  if (base >= n) return;
  if (fused::vec4(base, n, cols)) {
    const float4 v = fused::load4(x, base), b = fused::load4(bias, base % cols);
    fused::store4(t, base, make_float4(v.x + b.x, v.y + b.y, v.z + b.z, v.w + b.w));
  } else {
    for (size_t e = base; e < base + 4 && e < n; ++e) t[e] = x[e] + bias[e % cols];
  }
}

__global__ void bias_dropout_residual_separate_dropout(const float* t, float* d, size_t n, unsigned long long seed,
                                                       float keep, float scale) {
  const size_t k = size_t(blockIdx.x) * blockDim.x + threadIdx.x, base = 4 * k;
  if (base >= n) return;
  using fused_dropout::dropout;
  const float4 u = fused_dropout::uniforms4(seed, k);
  if (base + 4 <= n) {
    const float4 v = fused::load4(t, base);
    fused::store4(d, base, make_float4(dropout(v.x, u.x, keep, scale), dropout(v.y, u.y, keep, scale),
                                       dropout(v.z, u.z, keep, scale), dropout(v.w, u.w, keep, scale)));
  } else {
    for (size_t e = base; e < base + 4 && e < n; ++e)
      d[e] = dropout(t[e], fused_dropout::component(u, int(e - base)), keep, scale);
  }
}

__global__ void bias_dropout_residual_separate_residual(const float* residual, const float* d, float* out, size_t n) {
  const size_t base = 4 * (size_t(blockIdx.x) * blockDim.x + threadIdx.x);
  if (base >= n) return;
  if (base + 4 <= n) {
    const float4 r = fused::load4(residual, base), v = fused::load4(d, base);
    fused::store4(out, base, make_float4(r.x + v.x, r.y + v.y, r.z + v.z, r.w + v.w));
  } else {
    for (size_t e = base; e < base + 4 && e < n; ++e) out[e] = residual[e] + d[e];
  }
}

namespace {
void launch(const float* x, const float* bias, const float* residual, float* out, const fused_dropout::Config& c) {
  const size_t n = size_t(c.rows) * c.cols;
  float *t, *d;
  cudaMalloc(&t, n * sizeof(float));
  cudaMalloc(&d, n * sizeof(float));
  const int blocks = fused::blocks_for(n);
  bias_dropout_residual_separate_bias<<<blocks, fused::kThreads>>>(x, bias, t, c.rows, c.cols);
  bias_dropout_residual_separate_dropout<<<blocks, fused::kThreads>>>(t, d, n, c.seed, c.keep, c.scale);
  bias_dropout_residual_separate_residual<<<blocks, fused::kThreads>>>(residual, d, out, n);
  cudaFree(t);
  cudaFree(d);
}

simt::kernels::Outputs run(const simt::kernels::Params& p) { return fused_dropout::run(p, launch); }

simt::kernels::Registration reg({"bias_dropout_residual_separate",
                                 "bias + dropout (Philox) + residual in 3 launches: two intermediates through global "
                                 "memory",
                                 fused_dropout::params(), run, fused_dropout::check});
}  // namespace
