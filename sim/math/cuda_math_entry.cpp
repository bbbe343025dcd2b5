// The CUDA math functions device code calls, with the H200's bits: the compiler
// front end's pass points device-code calls of expf, exp2f, logf and tanhf here
// (sim/compiler/pass/math_sequences.cpp), and simtlab's <cuda_runtime.h> defines
// __expf, __logf, __log2f, __log10f, __powf, __fdividef and rsqrtf with them (simt_cuda/device_math.h). Host code keeps
// the C library's functions, as with nvcc.
#include "sim/math/cuda_math.hpp"
#include "sim/math/mufu_tables.hpp"

using namespace simt::mufu;

extern "C" {
float __simt_cuda_expf(float x) { return simt::mufu::expf(tables(kEx2), x); }
float __simt_cuda_exp2f(float x) { return simt::mufu::exp2f(tables(kEx2), x); }
float __simt_cuda_fast_expf(float x) { return fast_expf(tables(kEx2), x); }
float __simt_cuda_logf(float x) { return simt::mufu::logf(x); }
float __simt_cuda_tanhf(float x) { return simt::mufu::tanhf(tables(kEx2 | kRcp), x); }
float __simt_cuda_rsqrtf(float x) { return simt::mufu::rsqrtf(tables(kRsq), x); }
float __simt_cuda_fdividef(float a, float b) { return fdividef(tables(kRcp), a, b); }
float __simt_cuda_fast_log2f(float x) { return fast_log2f(tables(kLg2), x); }
float __simt_cuda_fast_logf(float x) { return fast_logf(tables(kLg2), x); }
float __simt_cuda_fast_log10f(float x) { return fast_log10f(tables(kLg2), x); }
float __simt_cuda_fast_powf(float a, float b) { return fast_powf(tables(kLg2 | kEx2), a, b); }
}
