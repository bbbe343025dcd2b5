// CUDA's device math names that the C library lacks. +, -, *, /, sqrt and fma
// are the compiler's own IEEE operations (counted by the pass). The MUFU-based
// intrinsics below return the H200's bits (sim/math: measured MUFU tables and CUDA
// 13's instruction sequences, checked over every 32-bit input); the others are
// computed exactly (CUDA's are approximations: see docs/frontend.md, "Math").
#pragma once
#include <cmath>
#include <type_traits>

extern "C" {
float __simt_cuda_rsqrtf(float) noexcept __attribute__((const));
float __simt_cuda_fast_expf(float) noexcept __attribute__((const));
float __simt_cuda_fdividef(float, float) noexcept __attribute__((const));
float __simt_cuda_fast_logf(float) noexcept __attribute__((const));
float __simt_cuda_fast_log2f(float) noexcept __attribute__((const));
float __simt_cuda_fast_log10f(float) noexcept __attribute__((const));
float __simt_cuda_fast_powf(float, float) noexcept __attribute__((const));
float __simt_cuda_fast_sinf(float) noexcept __attribute__((const));
float __simt_cuda_fast_cosf(float) noexcept __attribute__((const));
float __simt_cuda_fast_tanf(float) noexcept __attribute__((const));
float __simt_cuda_rcbrtf(float) noexcept __attribute__((const));
}

inline float rsqrtf(float x) { return __simt_cuda_rsqrtf(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float rcbrtf(float x) { return __simt_cuda_rcbrtf(x); }
inline double rcbrt(double x) { return 1.0 / std::cbrt(x); }
inline float __expf(float x) { return __simt_cuda_fast_expf(x); }
inline float __logf(float x) { return __simt_cuda_fast_logf(x); }
inline float __log2f(float x) { return __simt_cuda_fast_log2f(x); }
inline float __log10f(float x) { return __simt_cuda_fast_log10f(x); }
inline float __sinf(float x) { return __simt_cuda_fast_sinf(x); }
inline float __cosf(float x) { return __simt_cuda_fast_cosf(x); }
inline float __tanf(float x) { return __simt_cuda_fast_tanf(x); }
inline void __sincosf(float x, float* s, float* c) {
  *s = __simt_cuda_fast_sinf(x);
  *c = __simt_cuda_fast_cosf(x);
}
inline float __powf(float x, float y) { return __simt_cuda_fast_powf(x, y); }
inline float __fdividef(float x, float y) { return __simt_cuda_fdividef(x, y); }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __saturatef(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }
inline float exp10f(float x) { return std::pow(10.0f, x); }
inline float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
inline int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
inline float __uint_as_float(unsigned x) { return __builtin_bit_cast(float, x); }
inline unsigned __float_as_uint(float x) { return __builtin_bit_cast(unsigned, x); }
inline double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }
inline long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }
inline int __float2int_rn(float x) { return int(std::nearbyint(x)); }
inline int __float2int_rz(float x) { return int(x); }
inline float __int2float_rn(int x) { return float(x); }
using std::isfinite;
using std::isinf;
using std::isnan;

// CUDA's max/min for host and device: the usual arithmetic conversions pick the
// type, as CUDA's mixed overloads do.
template <class A, class B>
  requires(std::is_arithmetic_v<A> && std::is_arithmetic_v<B>)
inline auto max(A a, B b) {
  using R = decltype(a + b);
  if constexpr (std::is_floating_point_v<R>) return std::fmax(R(a), R(b));
  else return R(a) < R(b) ? R(b) : R(a);
}
template <class A, class B>
  requires(std::is_arithmetic_v<A> && std::is_arithmetic_v<B>)
inline auto min(A a, B b) {
  using R = decltype(a + b);
  if constexpr (std::is_floating_point_v<R>) return std::fmin(R(a), R(b));
  else return R(b) < R(a) ? R(b) : R(a);
}
