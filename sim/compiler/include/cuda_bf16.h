// simtlab's <cuda_bf16.h> for the compiler front end: CUDA's bfloat16 type
// __nv_bfloat16 and its pair __nv_bfloat162, with CUDA's names, bit-exact with sm_90
// (sim/math/narrow_float.h) and counted as the instructions nvcc emits for sm_90
// (docs/counters.md). Loads and stores are 2- and 4-byte accesses.
#pragma once
#ifndef __CUDA_BF16_H__  // CUDA's include guard: code tests it
#define __CUDA_BF16_H__
#endif
#include "cuda_fp16.h"

struct __nv_bfloat16_raw {
  unsigned short x;
};
struct __nv_bfloat162_raw {
  unsigned short x, y;
};

struct alignas(2) __nv_bfloat16 {
  unsigned short __x;
  __nv_bfloat16() = default;
  constexpr __nv_bfloat16(const __nv_bfloat16_raw& r) : __x(r.x) {}
  __nv_bfloat16(float f) : __x(simt::cuda::narrow::from_float(f, simt::cuda::narrow::kBf16)) {}
  __nv_bfloat16(double d) : __x(simt::cuda::narrow::from_double(d, simt::cuda::narrow::kBf16)) {}
  __nv_bfloat16(int v) : __nv_bfloat16(double(v)) {}
  __nv_bfloat16(unsigned v) : __nv_bfloat16(double(v)) {}
  __nv_bfloat16(short v) : __nv_bfloat16(double(v)) {}
  __nv_bfloat16(unsigned short v) : __nv_bfloat16(double(v)) {}
  __nv_bfloat16(long v) : __nv_bfloat16(double(v)) {}
  __nv_bfloat16(unsigned long v) : __nv_bfloat16(double(v)) {}
  __nv_bfloat16(long long v) : __nv_bfloat16(double(v)) {}
  __nv_bfloat16(unsigned long long v) : __nv_bfloat16(double(v)) {}
  explicit __nv_bfloat16(const __half h);
  operator float() const;  // below: it counts as __bfloat162float
  operator __nv_bfloat16_raw() const { return __nv_bfloat16_raw{simt::cuda::narrow::load_ref(*this).__x}; }
  explicit operator bool() const { return (simt::cuda::narrow::load_ref(*this).__x & 0x7fff) != 0; }
};

struct alignas(4) __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  constexpr __nv_bfloat162(const __nv_bfloat16& a, const __nv_bfloat16& b) : x(a), y(b) {}
  __nv_bfloat162(const __nv_bfloat162_raw& r) : x(__nv_bfloat16_raw{r.x}), y(__nv_bfloat16_raw{r.y}) {}
  operator __nv_bfloat162_raw() const {
    const __nv_bfloat162 v = simt::cuda::narrow::load_ref(*this);
    return __nv_bfloat162_raw{v.x.__x, v.y.__x};
  }
};
static_assert(sizeof(__nv_bfloat16) == 2 && sizeof(__nv_bfloat162) == 4 && alignof(__nv_bfloat162) == 4);
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

// What sm_90 executes for each bf16 operation (ncu on the H200, docs/counters.md).
template <> struct simt::cuda::narrow::Traits<__nv_bfloat16> {
  static constexpr Format format = kBf16;
  static constexpr Sass cost(Op op) {
    switch (op) {
      case Op::Add: return {.hadd = 1};
      case Op::Mul: return {.hmul = 1};
      case Op::Fma: return {.hfma = 1};
      case Op::Neg: return {.hfma = 1};  // HFMA2.BF16_V2 -0, 0, -x
      case Op::Abs: return {.hfma = 1};  // HFMA2.BF16_V2 on |x|
      case Op::Exp: return {.fmul = 1};  // FMUL x*log2(e), MUFU.EX2, F2FP
      case Op::Div: return {.fmul = 1};  // widening is a shift (PRMT/IMAD), not an hadd
      default: return {};
    }
  }
};

namespace simt::cuda::narrow {
inline __nv_bfloat16 b(std::uint16_t bits) { return make<__nv_bfloat16>(bits); }
inline __nv_bfloat16 b_of(double x, Round r) { return b(from_double(x, kBf16, r)); }
// A shift into the top half of a float: exact, NaN payloads included.
inline float widen(__nv_bfloat16 a) {
  count(Traits<__nv_bfloat16>::cost(Op::ToFloat));
  return __builtin_bit_cast(float, unsigned(a.__x) << 16);
}
}  // namespace simt::cuda::narrow

inline __nv_bfloat16::operator float() const { return __simt_n::widen(__simt_n::load_ref(*this)); }
inline __nv_bfloat16::__nv_bfloat16(const __half h) : __x(__simt_n::from_double(__simt_n::value(h), __simt_n::kBf16)) {}
inline __half::__half(const __nv_bfloat16& b) : __x(__simt_n::from_double(__simt_n::value(b), __simt_n::kHalf)) {}

// ---- conversions ----------------------------------------------------------------
inline __nv_bfloat16 __float2bfloat16(const float f) { return __simt_n::b_of(f, __simt_n::Round::Nearest); }
inline __nv_bfloat16 __float2bfloat16_rn(const float f) { return __simt_n::b_of(f, __simt_n::Round::Nearest); }
inline __nv_bfloat16 __float2bfloat16_rz(const float f) { return __simt_n::b_of(f, __simt_n::Round::Zero); }
inline __nv_bfloat16 __float2bfloat16_rd(const float f) { return __simt_n::b_of(f, __simt_n::Round::Down); }
inline __nv_bfloat16 __float2bfloat16_ru(const float f) { return __simt_n::b_of(f, __simt_n::Round::Up); }
inline __nv_bfloat16 __double2bfloat16(const double d) {
  return __simt_n::b(__simt_n::from_double_keep_nan(d, __simt_n::kBf16));
}
inline float __bfloat162float(const __nv_bfloat16 a) { return __simt_n::widen(a); }
inline __nv_bfloat162 __float2bfloat162_rn(const float f) {
  return __nv_bfloat162(__float2bfloat16(f), __float2bfloat16(f));
}
inline __nv_bfloat162 __floats2bfloat162_rn(const float a, const float b) {
  return __nv_bfloat162(__float2bfloat16(a), __float2bfloat16(b));
}
inline __nv_bfloat162 __float22bfloat162_rn(const float2 f) { return __floats2bfloat162_rn(f.x, f.y); }
inline float2 __bfloat1622float2(const __nv_bfloat162 a) {
  return make_float2(__bfloat162float(a.x), __bfloat162float(a.y));
}
inline float __low2float(const __nv_bfloat162 a) { return __bfloat162float(a.x); }
inline float __high2float(const __nv_bfloat162 a) { return __bfloat162float(a.y); }
inline __nv_bfloat16 __low2bfloat16(const __nv_bfloat162 a) { return a.x; }
inline __nv_bfloat16 __high2bfloat16(const __nv_bfloat162 a) { return a.y; }
inline __nv_bfloat162 __halves2bfloat162(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __nv_bfloat162(a, b); }
inline __nv_bfloat162 __bfloat162bfloat162(const __nv_bfloat16 a) { return __nv_bfloat162(a, a); }
inline __nv_bfloat162 __lows2bfloat162(const __nv_bfloat162 a, const __nv_bfloat162 b) { return __nv_bfloat162(a.x, b.x); }
inline __nv_bfloat162 __highs2bfloat162(const __nv_bfloat162 a, const __nv_bfloat162 b) { return __nv_bfloat162(a.y, b.y); }
inline __nv_bfloat162 __low2bfloat162(const __nv_bfloat162 a) { return __nv_bfloat162(a.x, a.x); }
inline __nv_bfloat162 __high2bfloat162(const __nv_bfloat162 a) { return __nv_bfloat162(a.y, a.y); }
inline __nv_bfloat162 make_bfloat162(const __nv_bfloat16 x, const __nv_bfloat16 y) { return __nv_bfloat162(x, y); }

inline unsigned short __bfloat16_as_ushort(const __nv_bfloat16 h) { return h.__x; }
inline short __bfloat16_as_short(const __nv_bfloat16 h) { return short(h.__x); }
inline __nv_bfloat16 __ushort_as_bfloat16(const unsigned short u) { return __simt_n::b(u); }
inline __nv_bfloat16 __short_as_bfloat16(const short s) { return __simt_n::b((unsigned short)s); }

#define SIMT_INT2BF16(name, I)                                                                       \
  inline __nv_bfloat16 name##_rn(const I v) { return __simt_n::b_of(double(v), __simt_n::Round::Nearest); } \
  inline __nv_bfloat16 name##_rz(const I v) { return __simt_n::b_of(double(v), __simt_n::Round::Zero); }    \
  inline __nv_bfloat16 name##_rd(const I v) { return __simt_n::b_of(double(v), __simt_n::Round::Down); }    \
  inline __nv_bfloat16 name##_ru(const I v) { return __simt_n::b_of(double(v), __simt_n::Round::Up); }
SIMT_INT2BF16(__int2bfloat16, int)
SIMT_INT2BF16(__uint2bfloat16, unsigned)
SIMT_INT2BF16(__short2bfloat16, short)
SIMT_INT2BF16(__ushort2bfloat16, unsigned short)
SIMT_INT2BF16(__ll2bfloat16, long long)
SIMT_INT2BF16(__ull2bfloat16, unsigned long long)
#undef SIMT_INT2BF16
#define SIMT_BF162INT(name, I)                                                                                      \
  inline I name##_rn(const __nv_bfloat16 h) { return __simt_n::to_int<I>(__simt_n::value(h), __simt_n::Round::Nearest); } \
  inline I name##_rz(const __nv_bfloat16 h) { return __simt_n::to_int<I>(__simt_n::value(h), __simt_n::Round::Zero); }    \
  inline I name##_rd(const __nv_bfloat16 h) { return __simt_n::to_int<I>(__simt_n::value(h), __simt_n::Round::Down); }    \
  inline I name##_ru(const __nv_bfloat16 h) { return __simt_n::to_int<I>(__simt_n::value(h), __simt_n::Round::Up); }
SIMT_BF162INT(__bfloat162int, int)
SIMT_BF162INT(__bfloat162uint, unsigned)
SIMT_BF162INT(__bfloat162short, short)
SIMT_BF162INT(__bfloat162ushort, unsigned short)
SIMT_BF162INT(__bfloat162ll, long long)
SIMT_BF162INT(__bfloat162ull, unsigned long long)
#undef SIMT_BF162INT

SIMT_NARROW_API(__nv_bfloat16, __nv_bfloat162)

#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)
