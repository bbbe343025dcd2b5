// CUDA's functions and operators that <cuda_fp16.h> and <cuda_bf16.h> both define,
// by the same names, for a 16-bit type H and its pair H2: SIMT_NARROW_API(H, H2)
// defines them once per type (as CUDA's overloads). The arithmetic and the counting
// are simt_cuda/narrow_ops.h's.
#pragma once
#include "simt_cuda/narrow_ops.h"

namespace simt::cuda::narrow {
template <class H> inline Sass cost(Op op) { return Traits<H>::cost(op); }
// A packed operation: one instruction per lane for both halves; float work twice.
// nvcc 13 emits a packed add or multiply as HFMA2.MMA (x*1+y, x*y-0), so ncu counts
// an hfma for it (measured on the H200, docs/counters.md).
template <class H> inline Sass pair_cost(Op op) {
  if (op == Op::Add || op == Op::Mul) return Sass{.hfma = 1, .packed = true};
  Sass s = Traits<H>::cost(op);
  s.packed = true;
  s.fadd *= 2;
  s.fmul *= 2;
  s.ffma *= 2;
  return s;
}
// A pair's float path (h2div, h2exp ...): each half widened on its own (two
// HADD2.F32), float work twice, the special-case HFMA2s once for both halves.
template <class H> inline void count_pair_math(Op op) {
  const Sass s = Traits<H>::cost(op);
  count(Sass{.hadd = std::uint8_t(2 * s.hadd), .fadd = std::uint8_t(2 * s.fadd), .fmul = std::uint8_t(2 * s.fmul),
             .ffma = std::uint8_t(2 * s.ffma)});
  count(Sass{.hfma = s.hfma, .packed = true});
}
template <class H, class H2, class F> inline H2 per_half(H2 a, H2 b, F f) {
  H2 r;
  r.x = f(a.x, b.x);
  r.y = f(a.y, b.y);
  return r;
}
// A transcendental: the float function (to_float, the function, to half). CUDA
// computes it on MUFU approximations with measured special cases; simtlab rounds
// the exact value (docs/frontend.md states the mismatch count found on the H200).
template <class H> inline H math_value(H a, double (*fn)(double)) {
  return nan(a) ? canonical_nan<H>() : quiet(round<H>(fn(value(a))));
}
template <class H> inline H math(H a, double (*fn)(double), Op op = Op::Math) {
  count(cost<H>(op));
  return math_value(a, fn);
}
template <class H, class H2> inline H2 math_pair(H2 a, double (*fn)(double), Op op = Op::Math) {
  count_pair_math<H>(op);
  H2 r;
  r.x = math_value(a.x, fn);
  r.y = math_value(a.y, fn);
  return r;
}
inline double rsqrt_d(double x) { return 1.0 / std::sqrt(x); }
inline double rcp_d(double x) { return 1.0 / x; }
inline double exp10_d(double x) { return std::pow(10.0, x); }
inline double sqrt_d(double x) { return std::sqrt(x); }
inline double exp_d(double x) { return std::exp(x); }
inline double exp2_d(double x) { return std::exp2(x); }
inline double log_d(double x) { return std::log(x); }
inline double log2_d(double x) { return std::log2(x); }
inline double log10_d(double x) { return std::log10(x); }
inline double sin_d(double x) { return std::sin(x); }
inline double cos_d(double x) { return std::cos(x); }
inline double tanh_d(double x) { return std::tanh(x); }
}  // namespace simt::cuda::narrow

#define SIMT_NARROW_BINARY(name, H, op, fn)                                              \
  inline H name(const H a, const H b) {                                                  \
    ::simt::cuda::narrow::count(::simt::cuda::narrow::cost<H>(::simt::cuda::narrow::Op::op)); \
    return fn;                                                                           \
  }
#define SIMT_NARROW_BINARY2(name, H, H2, op, fn)                                         \
  inline H2 name(const H2 a2, const H2 b2) {                                             \
    ::simt::cuda::narrow::count(::simt::cuda::narrow::pair_cost<H>(::simt::cuda::narrow::Op::op)); \
    return ::simt::cuda::narrow::per_half<H>(a2, b2, [](H a, H b) { return fn; });       \
  }
#define SIMT_NARROW_COMPARE(name, H, H2, expr)                                           \
  inline bool name(const H a, const H b) {                                               \
    namespace n = ::simt::cuda::narrow;                                                  \
    const double x = n::value(a), y = n::value(b);                                       \
    const bool u = n::nan(a) || n::nan(b);                                               \
    (void)x; (void)y; (void)u;                                                           \
    return expr;                                                                         \
  }                                                                                      \
  inline H2 name##2(const H2 a, const H2 b) {                                            \
    H2 r;                                                                                \
    r.x = ::simt::cuda::narrow::round<H>(name(a.x, b.x) ? 1.0 : 0.0);                    \
    r.y = ::simt::cuda::narrow::round<H>(name(a.y, b.y) ? 1.0 : 0.0);                    \
    return r;                                                                            \
  }                                                                                      \
  inline unsigned name##2_mask(const H2 a, const H2 b) {                                 \
    return (name(a.x, b.x) ? 0xffffu : 0u) | (name(a.y, b.y) ? 0xffff0000u : 0u);        \
  }
#define SIMT_NARROW_BCOMPARE(bname, H2, name) \
  inline bool bname(const H2 a, const H2 b) { return name(a.x, b.x) && name(a.y, b.y); }
#define SIMT_NARROW_MATH(name, H, H2, fn, op)                                                                        \
  inline H name(const H a) { return ::simt::cuda::narrow::math(a, ::simt::cuda::narrow::fn, ::simt::cuda::narrow::Op::op); } \
  inline H2 name##_h2pair(const H2 a) {                                                                            \
    return ::simt::cuda::narrow::math_pair<H>(a, ::simt::cuda::narrow::fn, ::simt::cuda::narrow::Op::op);          \
  }

// clang-format off
#define SIMT_NARROW_API(H, H2)                                                                  \
  SIMT_NARROW_BINARY(__hadd, H, Add, __simt_n::add(a, b))                                             \
  SIMT_NARROW_BINARY(__hsub, H, Add, __simt_n::sub(a, b))                                             \
  SIMT_NARROW_BINARY(__hmul, H, Mul, __simt_n::mul(a, b))                                             \
  SIMT_NARROW_BINARY(__hadd_rn, H, Add, __simt_n::add(a, b))                                          \
  SIMT_NARROW_BINARY(__hsub_rn, H, Add, __simt_n::sub(a, b))                                          \
  SIMT_NARROW_BINARY(__hmul_rn, H, Mul, __simt_n::mul(a, b))                                          \
  SIMT_NARROW_BINARY(__hdiv, H, Div, __simt_n::divide(a, b))                                  \
  SIMT_NARROW_BINARY(__hadd_sat, H, Add, __simt_n::sat(__simt_n::add(a, b)))                                \
  SIMT_NARROW_BINARY(__hsub_sat, H, Add, __simt_n::sat(__simt_n::sub(a, b)))                                \
  SIMT_NARROW_BINARY(__hmul_sat, H, Mul, __simt_n::sat(__simt_n::mul(a, b)))                                \
  SIMT_NARROW_BINARY(__hmax, H, Max, __simt_n::max(a, b))                                             \
  SIMT_NARROW_BINARY(__hmin, H, Min, __simt_n::min(a, b))                                             \
  SIMT_NARROW_BINARY(__hmax_nan, H, Max, __simt_n::max_nan(a, b))                                     \
  SIMT_NARROW_BINARY(__hmin_nan, H, Min, __simt_n::min_nan(a, b))                                     \
  SIMT_NARROW_BINARY2(__hadd2, H, H2, Add, __simt_n::add(a, b))                                       \
  SIMT_NARROW_BINARY2(__hsub2, H, H2, Add, __simt_n::sub(a, b))                                       \
  SIMT_NARROW_BINARY2(__hmul2, H, H2, Mul, __simt_n::mul(a, b))                                       \
  SIMT_NARROW_BINARY2(__hadd2_rn, H, H2, Add, __simt_n::add(a, b))                                    \
  SIMT_NARROW_BINARY2(__hsub2_rn, H, H2, Add, __simt_n::sub(a, b))                                    \
  SIMT_NARROW_BINARY2(__hmul2_rn, H, H2, Mul, __simt_n::mul(a, b))                                    \
  inline H2 __h2div(const H2 a, const H2 b) {                                                   \
    __simt_n::count_pair_math<H>(__simt_n::Op::Div);                                            \
    H2 r; r.x = __simt_n::divide(a.x, b.x); r.y = __simt_n::divide(a.y, b.y); return r;         \
  }                                                                                             \
  SIMT_NARROW_BINARY2(__hadd2_sat, H, H2, Add, __simt_n::sat(__simt_n::add(a, b)))                          \
  SIMT_NARROW_BINARY2(__hsub2_sat, H, H2, Add, __simt_n::sat(__simt_n::sub(a, b)))                          \
  SIMT_NARROW_BINARY2(__hmul2_sat, H, H2, Mul, __simt_n::sat(__simt_n::mul(a, b)))                          \
  SIMT_NARROW_BINARY2(__hmax2, H, H2, Max, __simt_n::max(a, b))                                       \
  SIMT_NARROW_BINARY2(__hmin2, H, H2, Min, __simt_n::min(a, b))                                       \
  SIMT_NARROW_BINARY2(__hmax2_nan, H, H2, Max, __simt_n::max_nan(a, b))                               \
  SIMT_NARROW_BINARY2(__hmin2_nan, H, H2, Min, __simt_n::min_nan(a, b))                               \
  inline H __hfma(const H a, const H b, const H c) {                                            \
    __simt_n::count(__simt_n::cost<H>(__simt_n::Op::Fma));                                                        \
    return __simt_n::fma(a, b, c);                                                                    \
  }                                                                                             \
  inline H __hfma_sat(const H a, const H b, const H c) {                                        \
    __simt_n::count(__simt_n::cost<H>(__simt_n::Op::Fma));                                                        \
    return __simt_n::sat(__simt_n::fma(a, b, c));                                                           \
  }                                                                                             \
  inline H __hfma_relu(const H a, const H b, const H c) {                                       \
    __simt_n::count(__simt_n::cost<H>(__simt_n::Op::Fma));                                                        \
    return __simt_n::relu(__simt_n::fma(a, b, c));                                                          \
  }                                                                                             \
  inline H2 __hfma2(const H2 a, const H2 b, const H2 c) {                                       \
    __simt_n::count(__simt_n::pair_cost<H>(__simt_n::Op::Fma));                                                   \
    H2 r;                                                                                       \
    r.x = __simt_n::fma(a.x, b.x, c.x);                                                               \
    r.y = __simt_n::fma(a.y, b.y, c.y);                                                               \
    return r;                                                                                   \
  }                                                                                             \
  inline H2 __hfma2_sat(const H2 a, const H2 b, const H2 c) {                                   \
    __simt_n::count(__simt_n::pair_cost<H>(__simt_n::Op::Fma));                                                   \
    H2 r;                                                                                       \
    r.x = __simt_n::sat(__simt_n::fma(a.x, b.x, c.x));                                                      \
    r.y = __simt_n::sat(__simt_n::fma(a.y, b.y, c.y));                                                      \
    return r;                                                                                   \
  }                                                                                             \
  inline H2 __hfma2_relu(const H2 a, const H2 b, const H2 c) {                                  \
    __simt_n::count(__simt_n::pair_cost<H>(__simt_n::Op::Fma));                                                   \
    H2 r;                                                                                       \
    r.x = __simt_n::relu(__simt_n::fma(a.x, b.x, c.x));                                                     \
    r.y = __simt_n::relu(__simt_n::fma(a.y, b.y, c.y));                                                     \
    return r;                                                                                   \
  }                                                                                             \
  inline H __hneg(const H a) { __simt_n::count(__simt_n::cost<H>(__simt_n::Op::Neg)); return __simt_n::neg(a); }       \
  inline H __habs(const H a) { __simt_n::count(__simt_n::cost<H>(__simt_n::Op::Abs)); return __simt_n::abs(a); }       \
  inline H2 __hneg2(const H2 a) {                                                               \
    __simt_n::count(__simt_n::pair_cost<H>(__simt_n::Op::Neg));                                                   \
    H2 r; r.x = __simt_n::neg(a.x); r.y = __simt_n::neg(a.y); return r;                                     \
  }                                                                                             \
  inline H2 __habs2(const H2 a) {                                                               \
    __simt_n::count(__simt_n::pair_cost<H>(__simt_n::Op::Abs));                                                   \
    H2 r; r.x = __simt_n::abs(a.x); r.y = __simt_n::abs(a.y); return r;                                     \
  }                                                                                             \
  SIMT_NARROW_COMPARE(__heq, H, H2, x == y)                                                     \
  SIMT_NARROW_COMPARE(__hne, H, H2, !u && x != y)                                               \
  SIMT_NARROW_COMPARE(__hlt, H, H2, x < y)                                                      \
  SIMT_NARROW_COMPARE(__hle, H, H2, x <= y)                                                     \
  SIMT_NARROW_COMPARE(__hgt, H, H2, x > y)                                                      \
  SIMT_NARROW_COMPARE(__hge, H, H2, x >= y)                                                     \
  SIMT_NARROW_COMPARE(__hequ, H, H2, u || x == y)                                               \
  SIMT_NARROW_COMPARE(__hneu, H, H2, u || x != y)                                               \
  SIMT_NARROW_COMPARE(__hltu, H, H2, u || x < y)                                                \
  SIMT_NARROW_COMPARE(__hleu, H, H2, u || x <= y)                                               \
  SIMT_NARROW_COMPARE(__hgtu, H, H2, u || x > y)                                                \
  SIMT_NARROW_COMPARE(__hgeu, H, H2, u || x >= y)                                               \
  SIMT_NARROW_BCOMPARE(__hbeq2, H2, __heq) SIMT_NARROW_BCOMPARE(__hbne2, H2, __hne)             \
  SIMT_NARROW_BCOMPARE(__hblt2, H2, __hlt) SIMT_NARROW_BCOMPARE(__hble2, H2, __hle)             \
  SIMT_NARROW_BCOMPARE(__hbgt2, H2, __hgt) SIMT_NARROW_BCOMPARE(__hbge2, H2, __hge)             \
  SIMT_NARROW_BCOMPARE(__hbequ2, H2, __hequ) SIMT_NARROW_BCOMPARE(__hbneu2, H2, __hneu)         \
  SIMT_NARROW_BCOMPARE(__hbltu2, H2, __hltu) SIMT_NARROW_BCOMPARE(__hbleu2, H2, __hleu)         \
  SIMT_NARROW_BCOMPARE(__hbgtu2, H2, __hgtu) SIMT_NARROW_BCOMPARE(__hbgeu2, H2, __hgeu)         \
  inline bool __hisnan(const H a) { return __simt_n::nan(a); }                                        \
  inline int __hisinf(const H a) {                                                              \
    return is_inf(a.__x, __simt_n::Traits<H>::format) ? ((a.__x & 0x8000) ? -1 : 1) : 0;              \
  }                                                                                             \
  inline H2 __hisnan2(const H2 a) {                                                             \
    H2 r; r.x = __simt_n::round<H>(__simt_n::nan(a.x) ? 1.0 : 0.0); r.y = __simt_n::round<H>(__simt_n::nan(a.y) ? 1.0 : 0.0); \
    return r;                                                                                   \
  }                                                                                             \
  SIMT_NARROW_MATH(hsqrt, H, H2, sqrt_d, Math) SIMT_NARROW_MATH(hrsqrt, H, H2, rsqrt_d, Math)               \
  SIMT_NARROW_MATH(hrcp, H, H2, rcp_d, Math) SIMT_NARROW_MATH(hexp, H, H2, exp_d, Exp)                     \
  SIMT_NARROW_MATH(hexp2, H, H2, exp2_d, Math) SIMT_NARROW_MATH(hexp10, H, H2, exp10_d, Math)               \
  SIMT_NARROW_MATH(hlog, H, H2, log_d, Log) SIMT_NARROW_MATH(hlog2, H, H2, log2_d, Math)                   \
  SIMT_NARROW_MATH(hlog10, H, H2, log10_d, Math) SIMT_NARROW_MATH(hsin, H, H2, sin_d, Sin)                 \
  SIMT_NARROW_MATH(hcos, H, H2, cos_d, Sin) SIMT_NARROW_MATH(htanh, H, H2, tanh_d, Math)                   \
  SIMT_NARROW_MATH(htanh_approx, H, H2, tanh_d, Math)                                                 \
  inline H2 h2sqrt(const H2 a) { return hsqrt_h2pair(a); }                                      \
  inline H2 h2rsqrt(const H2 a) { return hrsqrt_h2pair(a); }                                    \
  inline H2 h2rcp(const H2 a) { return hrcp_h2pair(a); }                                        \
  inline H2 h2exp(const H2 a) { return hexp_h2pair(a); }                                        \
  inline H2 h2exp2(const H2 a) { return hexp2_h2pair(a); }                                      \
  inline H2 h2exp10(const H2 a) { return hexp10_h2pair(a); }                                    \
  inline H2 h2log(const H2 a) { return hlog_h2pair(a); }                                        \
  inline H2 h2log2(const H2 a) { return hlog2_h2pair(a); }                                      \
  inline H2 h2log10(const H2 a) { return hlog10_h2pair(a); }                                    \
  inline H2 h2sin(const H2 a) { return hsin_h2pair(a); }                                        \
  inline H2 h2cos(const H2 a) { return hcos_h2pair(a); }                                        \
  inline H2 h2tanh(const H2 a) { return htanh_h2pair(a); }                                      \
  inline H hceil(const H a) { return __simt_n::integral(a, ::simt::cuda::narrow::ceil_d); }           \
  inline H hfloor(const H a) { return __simt_n::integral(a, ::simt::cuda::narrow::floor_d); }         \
  inline H htrunc(const H a) { return __simt_n::integral(a, ::simt::cuda::narrow::trunc_d); }         \
  inline H hrint(const H a) { return __simt_n::integral(a, ::simt::cuda::narrow::rint_d); }           \
  inline H2 h2ceil(const H2 a) { H2 r; r.x = hceil(a.x); r.y = hceil(a.y); return r; }          \
  inline H2 h2floor(const H2 a) { H2 r; r.x = hfloor(a.x); r.y = hfloor(a.y); return r; }       \
  inline H2 h2trunc(const H2 a) { H2 r; r.x = htrunc(a.x); r.y = htrunc(a.y); return r; }       \
  inline H2 h2rint(const H2 a) { H2 r; r.x = hrint(a.x); r.y = hrint(a.y); return r; }          \
  inline H2 __lowhigh2highlow(const H2 a) { H2 r; r.x = a.y; r.y = a.x; return r; }             \
  /* Operators: by value, so the caller's loads are the kernel's (see narrow_ops.h). */        \
  inline H operator+(const H a, const H b) { return __hadd(a, b); }                             \
  inline H operator-(const H a, const H b) { return __hsub(a, b); }                             \
  inline H operator*(const H a, const H b) { return __hmul(a, b); }                             \
  inline H operator/(const H a, const H b) { return __hdiv(a, b); }                             \
  inline H operator-(const H a) { return __hneg(a); }                                           \
  inline H operator+(const H a) { return a; }                                                   \
  inline H& operator+=(H& a, const H b) { __simt_n::store_ref(a, __hadd(__simt_n::load_ref(a), b)); return a; } \
  inline H& operator-=(H& a, const H b) { __simt_n::store_ref(a, __hsub(__simt_n::load_ref(a), b)); return a; } \
  inline H& operator*=(H& a, const H b) { __simt_n::store_ref(a, __hmul(__simt_n::load_ref(a), b)); return a; } \
  inline H& operator/=(H& a, const H b) { __simt_n::store_ref(a, __hdiv(__simt_n::load_ref(a), b)); return a; } \
  inline H& operator++(H& a) { __simt_n::store_ref(a, __hadd(__simt_n::load_ref(a), __simt_n::round<H>(1.0))); return a; } \
  inline H& operator--(H& a) { __simt_n::store_ref(a, __hsub(__simt_n::load_ref(a), __simt_n::round<H>(1.0))); return a; } \
  inline H operator++(H& a, int) { H old = __simt_n::load_ref(a); __simt_n::store_ref(a, __hadd(old, __simt_n::round<H>(1.0))); return old; } \
  inline H operator--(H& a, int) { H old = __simt_n::load_ref(a); __simt_n::store_ref(a, __hsub(old, __simt_n::round<H>(1.0))); return old; } \
  inline bool operator==(const H a, const H b) { return __heq(a, b); }                          \
  inline bool operator!=(const H a, const H b) { return __hneu(a, b); }                         \
  inline bool operator<(const H a, const H b) { return __hlt(a, b); }                           \
  inline bool operator<=(const H a, const H b) { return __hle(a, b); }                          \
  inline bool operator>(const H a, const H b) { return __hgt(a, b); }                           \
  inline bool operator>=(const H a, const H b) { return __hge(a, b); }                          \
  inline H2 operator+(const H2 a, const H2 b) { return __hadd2(a, b); }                         \
  inline H2 operator-(const H2 a, const H2 b) { return __hsub2(a, b); }                         \
  inline H2 operator*(const H2 a, const H2 b) { return __hmul2(a, b); }                         \
  inline H2 operator/(const H2 a, const H2 b) { return __h2div(a, b); }                         \
  inline H2 operator-(const H2 a) { return __hneg2(a); }                                        \
  inline H2 operator+(const H2 a) { return a; }                                                 \
  inline H2& operator+=(H2& a, const H2 b) { __simt_n::store_ref(a, __hadd2(__simt_n::load_ref(a), b)); return a; } \
  inline H2& operator-=(H2& a, const H2 b) { __simt_n::store_ref(a, __hsub2(__simt_n::load_ref(a), b)); return a; } \
  inline H2& operator*=(H2& a, const H2 b) { __simt_n::store_ref(a, __hmul2(__simt_n::load_ref(a), b)); return a; } \
  inline H2& operator/=(H2& a, const H2 b) { __simt_n::store_ref(a, __h2div(__simt_n::load_ref(a), b)); return a; } \
  inline bool operator==(const H2 a, const H2 b) { return __hbeq2(a, b); }                      \
  inline bool operator!=(const H2 a, const H2 b) { return __hbneu2(a, b); }                     \
  inline bool operator<(const H2 a, const H2 b) { return __hblt2(a, b); }                       \
  inline bool operator<=(const H2 a, const H2 b) { return __hble2(a, b); }                      \
  inline bool operator>(const H2 a, const H2 b) { return __hbgt2(a, b); }                       \
  inline bool operator>=(const H2 a, const H2 b) { return __hbge2(a, b); }                      \
  /* Atomics: the GPU's ATOM.ADD on 16-bit floats (no HADD is counted). */                      \
  inline H atomicAdd(H* address, const H v) {                                                   \
    return simt::cuda::atomic_rmw(address, [v](H old) { return __simt_n::add(old, v); });             \
  }                                                                                             \
  inline H2 atomicAdd(H2* address, const H2 v) {                                                \
    return simt::cuda::atomic_rmw(address, [v](H2 old) {                                        \
      H2 r; r.x = __simt_n::add(old.x, v.x); r.y = __simt_n::add(old.y, v.y); return r;                     \
    });                                                                                         \
  }
// clang-format on

namespace simt::cuda::narrow {
inline double ceil_d(double x) { return std::ceil(x); }
inline double floor_d(double x) { return std::floor(x); }
inline double trunc_d(double x) { return std::trunc(x); }
inline double rint_d(double x) { return std::nearbyint(x); }
}  // namespace simt::cuda::narrow
