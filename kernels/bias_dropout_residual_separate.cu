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
  float v[4], b[4];
  fused::load4(x, base, n, v);
  fused::load_bias4(bias, base, n, cols, b);
  for (int c = 0; c < 4; ++c) v[c] = v[c] + b[c];
  fused::store4(t, base, n, v);
}

__global__ void bias_dropout_residual_separate_dropout(const float* t, float* d, size_t n, unsigned long long seed,
                                                       float keep, float scale) {
  const size_t k = size_t(blockIdx.x) * blockDim.x + threadIdx.x, base = 4 * k;
  if (base >= n) return;
  float v[4], u[4];
  fused::load4(t, base, n, v);
  fused_dropout::uniforms4(seed, k, u);
  for (int c = 0; c < 4; ++c) v[c] = fused_dropout::dropout(v[c], u[c], keep, scale);
  fused::store4(d, base, n, v);
}

__global__ void bias_dropout_residual_separate_residual(const float* residual, const float* d, float* out, size_t n) {
  const size_t base = 4 * (size_t(blockIdx.x) * blockDim.x + threadIdx.x);
  if (base >= n) return;
  float r[4], v[4];
  fused::load4(residual, base, n, r);
  fused::load4(d, base, n, v);
  for (int c = 0; c < 4; ++c) v[c] = r[c] + v[c];
  fused::store4(out, base, n, v);
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
