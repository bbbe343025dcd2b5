// The CUDA math functions device code calls, with the H200's bits: the compiler
// front end's pass points device-code calls of expf, exp2f, logf, tanhf, sinf,
// cosf, sincosf, tanf, coshf, sinhf, erff, erfcf, log2f, log10f, log1pf, expm1f,
// exp10f, atanf, powf, asinf, acosf, atan2f, cbrtf, rcbrtf, hypotf and the double
// exp, log and tanh here
// (sim/compiler/pass/math_sequences.cpp), and simtlab's <cuda_runtime.h> defines
// __expf, __logf, __log2f, __log10f, __powf, __sinf, __cosf, __tanf, __sincosf,
// __fdividef and rsqrtf with them
// (simt_cuda/device_math.h). Host code keeps
// the C library's functions, as with nvcc.
#include "sim/math/cuda_math.hpp"
#include "sim/math/mufu_tables.hpp"

using namespace simt::mufu;

namespace {
// The GPU's NaN is 0x7fffffff whatever made it; the host's arithmetic inside these
// sequences may leave x86's 0xffc00000 (log1pf(-3.5)).
float gpu_nan(float r) { return r != r ? float_of(0x7fffffffu) : r; }
// Double results keep the host's NaN: the probe compared double NaNs as NaN, not
// their bits.
void gpu_nan(float* r) { *r = gpu_nan(*r); }
}  // namespace

extern "C" {
float __simt_cuda_expf(float x) { return gpu_nan(simt::mufu::expf(tables(kEx2), x)); }
float __simt_cuda_exp2f(float x) { return gpu_nan(simt::mufu::exp2f(tables(kEx2), x)); }
float __simt_cuda_fast_expf(float x) { return gpu_nan(fast_expf(tables(kEx2), x)); }
float __simt_cuda_logf(float x) { return gpu_nan(simt::mufu::logf(x)); }
float __simt_cuda_tanhf(float x) { return gpu_nan(simt::mufu::tanhf(tables(kEx2 | kRcp), x)); }
float __simt_cuda_rsqrtf(float x) { return gpu_nan(simt::mufu::rsqrtf(tables(kRsq), x)); }
float __simt_cuda_fdividef(float a, float b) { return gpu_nan(fdividef(tables(kRcp), a, b)); }
float __simt_cuda_fast_log2f(float x) { return gpu_nan(fast_log2f(tables(kLg2), x)); }
float __simt_cuda_fast_logf(float x) { return gpu_nan(fast_logf(tables(kLg2), x)); }
float __simt_cuda_fast_log10f(float x) { return gpu_nan(fast_log10f(tables(kLg2), x)); }
float __simt_cuda_fast_powf(float a, float b) { return gpu_nan(fast_powf(tables(kLg2 | kEx2), a, b)); }
float __simt_cuda_fast_sinf(float x) { return gpu_nan(fast_sinf(tables(kSin), x)); }
float __simt_cuda_fast_cosf(float x) { return gpu_nan(fast_cosf(tables(kSin), x)); }
float __simt_cuda_fast_tanf(float x) { return gpu_nan(fast_tanf(tables(kSin | kRcp), x)); }
float __simt_cuda_sinf(float x) { return gpu_nan(simt::mufu::sinf(x)); }
float __simt_cuda_cosf(float x) { return gpu_nan(simt::mufu::cosf(x)); }
void __simt_cuda_sincosf(float x, float* s, float* c) {
  simt::mufu::sincosf(x, s, c);
  gpu_nan(s);
  gpu_nan(c);
}
float __simt_cuda_tanf(float x) { return gpu_nan(simt::mufu::tanf(tables(kRcp), x)); }
float __simt_cuda_coshf(float x) { return gpu_nan(simt::mufu::coshf(tables(kEx2 | kRcp), x)); }
float __simt_cuda_sinhf(float x) { return gpu_nan(simt::mufu::sinhf(tables(kEx2 | kRcp), x)); }
float __simt_cuda_erff(float x) { return gpu_nan(simt::mufu::erff(tables(kEx2), x)); }
float __simt_cuda_erfcf(float x) { return gpu_nan(simt::mufu::erfcf(tables(kEx2 | kRcp), x)); }
float __simt_cuda_log2f(float x) { return gpu_nan(simt::mufu::log2f(x)); }
float __simt_cuda_log10f(float x) { return gpu_nan(simt::mufu::log10f(x)); }
float __simt_cuda_log1pf(float x) { return gpu_nan(simt::mufu::log1pf(x)); }
float __simt_cuda_expm1f(float x) { return gpu_nan(simt::mufu::expm1f(tables(kEx2), x)); }
float __simt_cuda_exp10f(float x) { return gpu_nan(simt::mufu::exp10f(tables(kEx2), x)); }
float __simt_cuda_atanf(float x) { return gpu_nan(simt::mufu::atanf(tables(kRcp), x)); }
float __simt_cuda_powf(float x, float y) { return gpu_nan(simt::mufu::powf(tables(kRcp), x, y)); }
float __simt_cuda_asinf(float x) { return gpu_nan(simt::mufu::asinf(tables(kRsq), x)); }
float __simt_cuda_acosf(float x) { return gpu_nan(simt::mufu::acosf(tables(kRsq), x)); }
float __simt_cuda_atan2f(float y, float x) { return gpu_nan(simt::mufu::atan2f(y, x)); }
float __simt_cuda_hypotf(float x, float y) { return gpu_nan(simt::mufu::hypotf(x, y)); }
float __simt_cuda_cbrtf(float x) { return gpu_nan(simt::mufu::cbrtf(tables(kLg2 | kEx2), x)); }
float __simt_cuda_rcbrtf(float x) { return gpu_nan(simt::mufu::rcbrtf(tables(kLg2 | kEx2), x)); }
// cbrtf, rcbrtf of a constant: nvcc folds lg2.approx of it to the correctly rounded
// log2 (fold_constant_cuda_math passes it here).
float __simt_cuda_cbrtf_lg2(float x, float log2x) { return gpu_nan(cbrtf_from_log2(tables(kEx2), x, log2x)); }
float __simt_cuda_rcbrtf_lg2(float x, float log2x) { return gpu_nan(rcbrtf_from_log2(tables(kEx2), x, log2x)); }
double __simt_cuda_exp(double x) { return simt::mufu::exp(x); }
double __simt_cuda_log(double x) { return simt::mufu::log(tables(kRcp), x); }
double __simt_cuda_tanh(double x) { return simt::mufu::tanh(tables(kEx2 | kRcp), x); }
}
