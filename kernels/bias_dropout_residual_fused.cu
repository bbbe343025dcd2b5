// Bias + dropout + residual fused into one kernel (kernels/fused_common.cuh,
// fused_dropout): out = residual + dropout(x + bias[col]), the dropout mask from
// Philox4_32_10 (curand_init(seed, k, 0), one curand_uniform4 per thread of 4
// elements), drawn in registers and never stored. Against the separate version: two
// launches fewer and no intermediates, so per element 8 bytes read (x, residual) and
// 4 written (out) instead of 16 and 12. The same mask and the same float operations
// in the same order: the same bits as the separate version.
#include "kernels/fused_common.cuh"
#include "kernels/harness.hpp"
#include <cuda_runtime.h>
#include <curand_kernel.h>

__global__ void bias_dropout_residual_fused(const float* x, const float* bias, const float* residual, float* out,
                                            int rows, int cols, unsigned long long seed, float keep, float scale) {
  const size_t n = size_t(rows) * cols, k = size_t(blockIdx.x) * blockDim.x + threadIdx.x, base = 4 * k;
  if (base >= n) return;
  using fused_dropout::dropout;
  const float4 u = fused_dropout::uniforms4(seed, k);
  if (fused::vec4(base, n, cols)) {
    const float4 v = fused::load4(x, base), b = fused::load4(bias, base % cols), r = fused::load4(residual, base);
    fused::store4(out, base,
                  make_float4(r.x + dropout(v.x + b.x, u.x, keep, scale), r.y + dropout(v.y + b.y, u.y, keep, scale),
                              r.z + dropout(v.z + b.z, u.z, keep, scale), r.w + dropout(v.w + b.w, u.w, keep, scale)));
  } else {
    for (size_t e = base; e < base + 4 && e < n; ++e)
      out[e] = residual[e] + dropout(x[e] + bias[e % cols], fused_dropout::component(u, int(e - base)), keep, scale);
  }
}

namespace {
void launch(const float* x, const float* bias, const float* residual, float* out, const fused_dropout::Config& c) {
  const size_t n = size_t(c.rows) * c.cols;
  bias_dropout_residual_fused<<<fused::blocks_for(n), fused::kThreads>>>(x, bias, residual, out, c.rows, c.cols,
                                                                         c.seed, c.keep, c.scale);
}

simt::kernels::Outputs run(const simt::kernels::Params& p) { return fused_dropout::run(p, launch); }

simt::kernels::Registration reg({"bias_dropout_residual_fused",
                                 "bias + dropout (Philox) + residual in 1 launch: x, bias, residual in, out out",
                                 fused_dropout::params(), run, fused_dropout::check});
}  // namespace
