// simtlab's <cuda_fp16.h> for the compiler front end: CUDA's half-precision type
// __half and its pair __half2, with CUDA's names, bit-exact with sm_90 (round to
// nearest even, subnormals kept; sim/math/narrow_float.h proves the rounding), and
// counted as the HADD/HMUL/HFMA instructions nvcc emits (docs/counters.md).
// Loads and stores of __half are 2-byte accesses, __half2 4-byte: plain structs of
// unsigned short, copied by the kernel's own code.
#pragma once
#ifndef __CUDA_FP16_H__  // CUDA's include guard: code tests it
#define __CUDA_FP16_H__
#endif
#include "cuda_runtime.h"
#include "simt_cuda/narrow_api.h"

struct __half_raw {
  unsigned short x;
};
struct __half2_raw {
  unsigned short x, y;
};

struct __nv_bfloat16;

struct alignas(2) __half {
  unsigned short __x;  // public here (CUDA's is protected): simtlab's free functions use it
  __half() = default;
  constexpr __half(const __half_raw& r) : __x(r.x) {}
  __half(float f) : __x(simt::cuda::narrow::from_float(f, simt::cuda::narrow::kHalf)) {}
  __half(double d) : __x(simt::cuda::narrow::from_double(d, simt::cuda::narrow::kHalf)) {}
  __half(int v) : __half(double(v)) {}
  __half(unsigned v) : __half(double(v)) {}
  __half(short v) : __half(double(v)) {}
  __half(unsigned short v) : __half(double(v)) {}
  __half(long v) : __half(double(v)) {}
  __half(unsigned long v) : __half(double(v)) {}
  __half(long long v) : __half(double(v)) {}
  __half(unsigned long long v) : __half(double(v)) {}
  explicit __half(const __nv_bfloat16& b);  // cuda_bf16.h
  // A member reads *this, which may be device memory: the kernel's access.
  operator float() const;  // below: it counts as __half2float
  operator __half_raw() const { return __half_raw{simt::cuda::narrow::load_ref(*this).__x}; }
  explicit operator bool() const { return (simt::cuda::narrow::load_ref(*this).__x & 0x7fff) != 0; }
  explicit operator int() const { return simt::cuda::narrow::to_int<int>(float(*this), simt::cuda::narrow::Round::Zero); }
};

struct alignas(4) __half2 {
  __half x, y;
  __half2() = default;
  constexpr __half2(const __half& a, const __half& b) : x(a), y(b) {}
  __half2(const __half2_raw& r) : x(__half_raw{r.x}), y(__half_raw{r.y}) {}
  operator __half2_raw() const {
    const __half2 v = simt::cuda::narrow::load_ref(*this);
    return __half2_raw{v.x.__x, v.y.__x};
  }
};
static_assert(sizeof(__half) == 2 && sizeof(__half2) == 4 && alignof(__half2) == 4);
typedef __half half;
typedef __half2 half2;
typedef __half_raw __nv_half_raw;
typedef __half __nv_half;
typedef __half2 __nv_half2;

// What sm_90 executes for each operation (ncu on the H200, docs/counters.md):
// arithmetic is HADD2/HMUL2/HFMA2; widening to float is HADD2.F32 (an hadd);
// narrowing (F2FP), comparisons (HSETP2) and min/max (HMNMX2) count as none.
template <> struct simt::cuda::narrow::Traits<__half> {
  static constexpr Format format = kHalf;
  static constexpr Sass cost(Op op) {
    switch (op) {
      case Op::Add: return {.hadd = 1};
      case Op::Mul: return {.hmul = 1};
      case Op::Fma: return {.hfma = 1};
      case Op::Neg: return {.hadd = 1};  // HADD2 -x, -0
      case Op::Abs: return {.hadd = 1};  // HADD2 |x|, -0
      case Op::ToFloat: return {.hadd = 1};  // HADD2.F32 -0, x
      // HADD2.F32, MUFU, F2FP: measured for hsqrt, hrcp; hrsqrt, hexp2, hexp10, hlog2,
      // hlog10, htanh counted so by analogy (not measured)
      case Op::Math: return {.hadd = 1};
      case Op::Exp: return {.hadd = 1, .hfma = 4, .ffma = 1};  // + FFMA x*log2(e), 4 HFMA2 special cases
      case Op::Log: return {.hadd = 1, .hfma = 4, .fmul = 1};  // + MUFU.LG2, FMUL by ln(2), 4 HFMA2
      case Op::Sin: return {.hadd = 1, .hfma = 4, .fadd = 1, .fmul = 1, .ffma = 7};  // range reduction, polynomial (hcos by analogy)
      case Op::Div: return {.hadd = 2, .fmul = 1};  // 2 HADD2.F32, MUFU.RCP, FMUL, F2FP
      default: return {};
    }
  }
};

namespace simt::cuda::narrow {
inline __half h(std::uint16_t b) { return make<__half>(b); }
inline __half h_of(double x, Round r) { return h(from_double(x, kHalf, r)); }
// HADD2.F32 -0, x: a NaN comes out as the canonical float NaN 0x7fffffff.
inline float widen(__half a) {
  count(Traits<__half>::cost(Op::ToFloat));
  return is_nan(a.__x, kHalf) ? __builtin_bit_cast(float, 0x7fffffffu) : float(to_double(a.__x, kHalf));
}
}  // namespace simt::cuda::narrow

namespace __simt_n = ::simt::cuda::narrow;
inline __half::operator float() const { return __simt_n::widen(__simt_n::load_ref(*this)); }

// ---- conversions ----------------------------------------------------------------
inline __half __float2half(const float f) { return __simt_n::h_of(f, __simt_n::Round::Nearest); }
inline __half __float2half_rn(const float f) { return __simt_n::h_of(f, __simt_n::Round::Nearest); }
inline __half __float2half_rz(const float f) { return __simt_n::h_of(f, __simt_n::Round::Zero); }
inline __half __float2half_rd(const float f) { return __simt_n::h_of(f, __simt_n::Round::Down); }
inline __half __float2half_ru(const float f) { return __simt_n::h_of(f, __simt_n::Round::Up); }
inline __half __double2half(const double d) { return __simt_n::h(__simt_n::from_double_keep_nan(d, __simt_n::kHalf)); }
inline float __half2float(const __half a) { return __simt_n::widen(a); }
inline __half2 __float2half2_rn(const float f) { return __half2(__float2half(f), __float2half(f)); }
inline __half2 __floats2half2_rn(const float a, const float b) { return __half2(__float2half(a), __float2half(b)); }
inline __half2 __float22half2_rn(const float2 f) { return __floats2half2_rn(f.x, f.y); }
inline float2 __half22float2(const __half2 a) { return make_float2(__half2float(a.x), __half2float(a.y)); }
inline float __low2float(const __half2 a) { return __half2float(a.x); }
inline float __high2float(const __half2 a) { return __half2float(a.y); }
inline __half __low2half(const __half2 a) { return a.x; }
inline __half __high2half(const __half2 a) { return a.y; }
inline __half2 __halves2half2(const __half a, const __half b) { return __half2(a, b); }
inline __half2 __half2half2(const __half a) { return __half2(a, a); }
inline __half2 __lows2half2(const __half2 a, const __half2 b) { return __half2(a.x, b.x); }
inline __half2 __highs2half2(const __half2 a, const __half2 b) { return __half2(a.y, b.y); }
inline __half2 __low2half2(const __half2 a) { return __half2(a.x, a.x); }
inline __half2 __high2half2(const __half2 a) { return __half2(a.y, a.y); }
inline __half2 make_half2(const __half x, const __half y) { return __half2(x, y); }

inline unsigned short __half_as_ushort(const __half h) { return h.__x; }
inline short __half_as_short(const __half h) { return short(h.__x); }
inline __half __ushort_as_half(const unsigned short u) { return __simt_n::h(u); }
inline __half __short_as_half(const short s) { return __simt_n::h((unsigned short)s); }

// Integers to half, in each rounding mode (exact in double first: |v| < 2^64).
#define SIMT_INT2HALF(name, I)                                                               \
  inline __half name##_rn(const I v) { return __simt_n::h_of(double(v), __simt_n::Round::Nearest); } \
  inline __half name##_rz(const I v) { return __simt_n::h_of(double(v), __simt_n::Round::Zero); }    \
  inline __half name##_rd(const I v) { return __simt_n::h_of(double(v), __simt_n::Round::Down); }    \
  inline __half name##_ru(const I v) { return __simt_n::h_of(double(v), __simt_n::Round::Up); }
SIMT_INT2HALF(__int2half, int)
SIMT_INT2HALF(__uint2half, unsigned)
SIMT_INT2HALF(__short2half, short)
SIMT_INT2HALF(__ushort2half, unsigned short)
SIMT_INT2HALF(__ll2half, long long)
SIMT_INT2HALF(__ull2half, unsigned long long)
#undef SIMT_INT2HALF
#define SIMT_HALF2INT(name, I)                                                                               \
  inline I name##_rn(const __half h) { return __simt_n::to_int<I>(__simt_n::value(h), __simt_n::Round::Nearest); } \
  inline I name##_rz(const __half h) { return __simt_n::to_int<I>(__simt_n::value(h), __simt_n::Round::Zero); }    \
  inline I name##_rd(const __half h) { return __simt_n::to_int<I>(__simt_n::value(h), __simt_n::Round::Down); }    \
  inline I name##_ru(const __half h) { return __simt_n::to_int<I>(__simt_n::value(h), __simt_n::Round::Up); }
SIMT_HALF2INT(__half2int, int)
SIMT_HALF2INT(__half2uint, unsigned)
SIMT_HALF2INT(__half2short, short)
SIMT_HALF2INT(__half2ushort, unsigned short)
SIMT_HALF2INT(__half2ll, long long)
SIMT_HALF2INT(__half2ull, unsigned long long)
#undef SIMT_HALF2INT

SIMT_NARROW_API(__half, __half2)

// Device-side constants CUDA defines (cuda_fp16.h: CUDART_*_FP16).
#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
#define CUDART_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00U)
