// What CUDA's math functions cost in counted instructions on the GPU: one kernel
// per function, one call per thread over inputs in the range a kernel typically
// sees. Run under ncu (tests/cuda/run_math_sequences_gpu.sh); FADD/FMUL/FFMA per
// call = ncu's count / kNumCalls. simtlab counts a call of each function as the
// sequence measured here (docs/counters.md, "Math functions").
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int kNumCalls = 1 << 15;

// Inputs spread evenly over [lo, hi], shuffled by a fixed LCG so warps mix values.
std::vector<float> inputs(float lo, float hi, unsigned seed) {
  std::vector<float> v(kNumCalls);
  for (int i = 0; i < kNumCalls; ++i) v[i] = lo + (hi - lo) * (i + 0.5f) / kNumCalls;
  for (int i = kNumCalls - 1; i > 0; --i) {
    seed = seed * 1664525u + 1013904223u;
    std::swap(v[i], v[seed % (i + 1)]);
  }
  return v;
}

#define UNARY(name, expr)                                                   \
  __global__ void name(const float* x, float* out) {                       \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                          \
    float a = x[i];                                                         \
    out[i] = (expr);                                                        \
  }
#define BINARY(name, expr)                                                  \
  __global__ void name(const float* x, const float* y, float* out) {       \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                          \
    float a = x[i], b = y[i];                                               \
    out[i] = (expr);                                                        \
  }
#define UNARY_D(name, expr)                                                 \
  __global__ void name(const float* x, float* out) {                       \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                          \
    double a = x[i];                                                        \
    out[i] = float(expr);                                                   \
  }
#define BINARY_D(name, expr)                                                \
  __global__ void name(const float* x, const float* y, float* out) {       \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                          \
    double a = x[i], b = y[i];                                              \
    out[i] = float(expr);                                                   \
  }

BINARY(op_fdiv, a / b)
UNARY(op_frcp, 1.0f / a)
UNARY(fn_sqrtf, sqrtf(a))
UNARY(fn_rsqrtf, rsqrtf(a))
UNARY(fn_expf, expf(a))
UNARY(fn_exp2f, exp2f(a))
UNARY(fn_logf, logf(a))
UNARY(fn_log2f, log2f(a))
UNARY(fn_log10f, log10f(a))
BINARY(fn_powf, powf(a, b))
UNARY(fn_tanhf, tanhf(a))
UNARY(fn_sinf, sinf(a))
UNARY(fn_cosf, cosf(a))
UNARY(fn_erff, erff(a))
UNARY(fn_intrinsic_expf, __expf(a))
UNARY(fn_intrinsic_logf, __logf(a))
BINARY(fn_intrinsic_fdividef, __fdividef(a, b))
UNARY(fn_intrinsic_sinf, __sinf(a))
UNARY(fn_intrinsic_cosf, __cosf(a))
UNARY(fn_intrinsic_log2f, __log2f(a))
UNARY(fn_intrinsic_log10f, __log10f(a))
BINARY(fn_intrinsic_powf, __powf(a, b))
UNARY(fn_intrinsic_tanf, __tanf(a))
UNARY(fn_tanf, tanf(a))
UNARY(fn_coshf, coshf(a))
UNARY(fn_sinhf, sinhf(a))
UNARY(fn_erfcf, erfcf(a))
UNARY(fn_log1pf, log1pf(a))
UNARY(fn_expm1f, expm1f(a))
UNARY(fn_exp10f, exp10f(a))
UNARY(fn_atanf, atanf(a))
UNARY(fn_asinf, asinf(a))
UNARY(fn_acosf, acosf(a))
UNARY(fn_cbrtf, cbrtf(a))
BINARY(fn_atan2f, atan2f(a, b))
BINARY(fn_hypotf, hypotf(a, b))
BINARY_D(op_ddiv, a / b)
UNARY_D(fn_sqrt, sqrt(a))
UNARY_D(fn_exp, exp(a))
UNARY_D(fn_log, log(a))
UNARY_D(fn_tanh, tanh(a))

struct Buffers {
  float *x, *y, *out;
};

Buffers upload(const std::vector<float>& x, const std::vector<float>& y) {
  Buffers b;
  cudaMalloc(&b.x, kNumCalls * sizeof(float));
  cudaMalloc(&b.y, kNumCalls * sizeof(float));
  cudaMalloc(&b.out, kNumCalls * sizeof(float));
  cudaMemcpy(b.x, x.data(), kNumCalls * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(b.y, y.data(), kNumCalls * sizeof(float), cudaMemcpyHostToDevice);
  return b;
}

int main() {
  const dim3 grid(kNumCalls / 256), block(256);
  Buffers any = upload(inputs(-8, 8, 1), inputs(0.5f, 50, 2));       // exp, tanh, erf, division
  Buffers pos = upload(inputs(0.01f, 100, 3), inputs(-3, 3, 4));     // log, sqrt, pow (x > 0)
  Buffers trig = upload(inputs(-10, 10, 5), inputs(1, 2, 6));        // sin, cos
  Buffers unit = upload(inputs(-1, 1, 7), inputs(-1, 1, 8));         // asin, acos; the typical paths of sinh, atan
  op_fdiv<<<grid, block>>>(any.x, any.y, any.out);
  op_frcp<<<grid, block>>>(any.y, any.out);
  fn_sqrtf<<<grid, block>>>(pos.x, pos.out);
  fn_rsqrtf<<<grid, block>>>(pos.x, pos.out);
  fn_expf<<<grid, block>>>(any.x, any.out);
  fn_exp2f<<<grid, block>>>(any.x, any.out);
  fn_logf<<<grid, block>>>(pos.x, pos.out);
  fn_log2f<<<grid, block>>>(pos.x, pos.out);
  fn_log10f<<<grid, block>>>(pos.x, pos.out);
  fn_powf<<<grid, block>>>(pos.x, pos.y, pos.out);
  fn_tanhf<<<grid, block>>>(any.x, any.out);
  fn_sinf<<<grid, block>>>(trig.x, trig.out);
  fn_cosf<<<grid, block>>>(trig.x, trig.out);
  fn_erff<<<grid, block>>>(any.x, any.out);
  fn_intrinsic_expf<<<grid, block>>>(any.x, any.out);
  fn_intrinsic_logf<<<grid, block>>>(pos.x, pos.out);
  fn_intrinsic_fdividef<<<grid, block>>>(any.x, any.y, any.out);
  fn_intrinsic_sinf<<<grid, block>>>(trig.x, trig.out);
  fn_intrinsic_cosf<<<grid, block>>>(trig.x, trig.out);
  fn_intrinsic_log2f<<<grid, block>>>(pos.x, pos.out);
  fn_intrinsic_log10f<<<grid, block>>>(pos.x, pos.out);
  fn_intrinsic_powf<<<grid, block>>>(pos.x, pos.y, pos.out);
  fn_intrinsic_tanf<<<grid, block>>>(trig.x, trig.out);
  fn_tanf<<<grid, block>>>(trig.x, trig.out);
  fn_coshf<<<grid, block>>>(any.x, any.out);
  fn_sinhf<<<grid, block>>>(unit.x, unit.out);
  fn_erfcf<<<grid, block>>>(pos.x, pos.out);
  fn_log1pf<<<grid, block>>>(pos.x, pos.out);
  fn_expm1f<<<grid, block>>>(any.x, any.out);
  fn_exp10f<<<grid, block>>>(any.x, any.out);
  fn_atanf<<<grid, block>>>(unit.x, unit.out);
  fn_asinf<<<grid, block>>>(unit.x, unit.out);
  fn_acosf<<<grid, block>>>(unit.x, unit.out);
  fn_cbrtf<<<grid, block>>>(any.x, any.out);
  fn_atan2f<<<grid, block>>>(any.x, any.y, any.out);
  fn_hypotf<<<grid, block>>>(any.x, any.y, any.out);
  op_ddiv<<<grid, block>>>(any.x, any.y, any.out);
  fn_sqrt<<<grid, block>>>(pos.x, pos.out);
  fn_exp<<<grid, block>>>(any.x, any.out);
  fn_log<<<grid, block>>>(pos.x, pos.out);
  fn_tanh<<<grid, block>>>(any.x, any.out);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("%d calls per kernel: %s\n", kNumCalls, cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
