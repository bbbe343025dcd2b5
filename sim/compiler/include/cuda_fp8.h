// simtlab's <cuda_fp8.h> for the compiler front end: CUDA 13's 8-bit floating-point
// formats E4M3 and E5M2 (OCP FP8) with CUDA's names — the storage types, the C
// conversion functions (__nv_cvt_*) and the classes __nv_fp8_e4m3, __nv_fp8_e5m2 and
// their x2/x4 vectors with CUDA's constructors and conversion operators. Bit-exact
// with CUDA 13 for every float, half and bfloat16 input (sim/math/fp8_float.h states
// the rules; tests/cuda/fp8_conversions.cu compares with nvcc's host code,
// docs/validation/fp8-conversions.md). The classes are plain structs of their bits:
// an array of __nv_fp8_e4m3 is an array of bytes, loaded 1, 2 or 4 bytes at a time.
//
// Counting (sm_90, sm_89's cvt instructions; docs/validation/fp8-conversions.md): a
// narrowing conversion is one F2FP (a pair too: one instruction packs both), counted
// as one instruction of no FP counter; fp8 -> half one F2FP; fp8 -> float that F2FP
// and the HADD2.F32 of half -> float (an hadd, as __half2float). bfloat16 -> fp8 adds
// the shift that widens the bfloat16. The E8M0 type of CUDA 13 is not provided.
#pragma once
#ifndef __CUDA_FP8_H__  // CUDA's include guard: code tests it
#define __CUDA_FP8_H__
#endif
#define __CUDA_FP8_TYPES_EXIST__
#include "cuda_bf16.h"
#include "cuda_fp16.h"
#include "sim/math/fp8_float.h"
#include "simt_cuda/markers.h"

typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short int __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;

typedef enum __nv_saturation_t {
  __NV_NOSAT,
  __NV_SATFINITE,
} __nv_saturation_t;

typedef enum __nv_fp8_interpretation_t {
  __NV_E4M3,
  __NV_E5M2,
} __nv_fp8_interpretation_t;

namespace simt::cuda::fp8 {
inline Kind kind(__nv_fp8_interpretation_t i) { return i == __NV_E5M2 ? Kind::E5M2 : Kind::E4M3; }
inline bool sat(__nv_saturation_t s) { return s == __NV_SATFINITE; }
// A half or bfloat16 goes through its float value (a NaN becomes the canonical float NaN).
inline __nv_fp8_storage_t from_narrow(unsigned short bits, narrow::Format f, __nv_saturation_t s,
                                      __nv_fp8_interpretation_t i) {
  if (narrow::is_nan(bits, f)) return 0x7F;
  return from_double(narrow::to_double(bits, f), kind(i), sat(s));
}
inline __half half_bits(unsigned short b) { return __half(__half_raw{b}); }
}  // namespace simt::cuda::fp8

// ---- the C conversion functions ---------------------------------------------------
inline __nv_fp8_storage_t __nv_cvt_double_to_fp8(const double x, const __nv_saturation_t saturate,
                                                 const __nv_fp8_interpretation_t fp8_interpretation) {
  __simt_site_sass();
  return simt::cuda::fp8::from_double(x, simt::cuda::fp8::kind(fp8_interpretation), simt::cuda::fp8::sat(saturate));
}
inline __nv_fp8x2_storage_t __nv_cvt_double2_to_fp8x2(const double2 x, const __nv_saturation_t saturate,
                                                      const __nv_fp8_interpretation_t fp8_interpretation) {
  const unsigned lo = __nv_cvt_double_to_fp8(x.x, saturate, fp8_interpretation);
  const unsigned hi = __nv_cvt_double_to_fp8(x.y, saturate, fp8_interpretation);
  return __nv_fp8x2_storage_t(hi << 8 | lo);
}
inline __nv_fp8_storage_t __nv_cvt_float_to_fp8(const float x, const __nv_saturation_t saturate,
                                                const __nv_fp8_interpretation_t fp8_interpretation) {
  __simt_site_sass();  // F2FP.SATFINITE.E4M3.F32.PACK_AB (E5M2 alike)
  return simt::cuda::fp8::from_float(x, simt::cuda::fp8::kind(fp8_interpretation), simt::cuda::fp8::sat(saturate));
}
// x.x in the low byte, x.y in the high byte: one F2FP for both.
inline __nv_fp8x2_storage_t __nv_cvt_float2_to_fp8x2(const float2 x, const __nv_saturation_t saturate,
                                                     const __nv_fp8_interpretation_t fp8_interpretation) {
  __simt_site_sass();
  const simt::cuda::fp8::Kind k = simt::cuda::fp8::kind(fp8_interpretation);
  const bool s = simt::cuda::fp8::sat(saturate);
  return __nv_fp8x2_storage_t(unsigned(simt::cuda::fp8::from_float(x.y, k, s)) << 8 |
                              simt::cuda::fp8::from_float(x.x, k, s));
}
inline __nv_fp8_storage_t __nv_cvt_halfraw_to_fp8(const __half_raw x, const __nv_saturation_t saturate,
                                                  const __nv_fp8_interpretation_t fp8_interpretation) {
  __simt_site_sass();  // F2FP from f16x2
  return simt::cuda::fp8::from_narrow(x.x, simt::cuda::narrow::kHalf, saturate, fp8_interpretation);
}
inline __nv_fp8x2_storage_t __nv_cvt_halfraw2_to_fp8x2(const __half2_raw x, const __nv_saturation_t saturate,
                                                       const __nv_fp8_interpretation_t fp8_interpretation) {
  __simt_site_sass();
  using simt::cuda::narrow::kHalf;
  return __nv_fp8x2_storage_t(unsigned(simt::cuda::fp8::from_narrow(x.y, kHalf, saturate, fp8_interpretation)) << 8 |
                              simt::cuda::fp8::from_narrow(x.x, kHalf, saturate, fp8_interpretation));
}
inline __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_fp8(const __nv_bfloat16_raw x, const __nv_saturation_t saturate,
                                                      const __nv_fp8_interpretation_t fp8_interpretation) {
  __simt_site_sass();  // the shift that makes it a float
  __simt_site_sass();  // F2FP from f32
  return simt::cuda::fp8::from_narrow(x.x, simt::cuda::narrow::kBf16, saturate, fp8_interpretation);
}
inline __nv_fp8x2_storage_t __nv_cvt_bfloat16raw2_to_fp8x2(const __nv_bfloat162_raw x,
                                                           const __nv_saturation_t saturate,
                                                           const __nv_fp8_interpretation_t fp8_interpretation) {
  const unsigned lo = __nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw{x.x}, saturate, fp8_interpretation);
  const unsigned hi = __nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw{x.y}, saturate, fp8_interpretation);
  return __nv_fp8x2_storage_t(hi << 8 | lo);
}
inline __half_raw __nv_cvt_fp8_to_halfraw(const __nv_fp8_storage_t x,
                                          const __nv_fp8_interpretation_t fp8_interpretation) {
  __simt_site_sass();  // F2FP.F16.E4M3.UNPACK_B
  return __half_raw{simt::cuda::fp8::to_half(x, simt::cuda::fp8::kind(fp8_interpretation))};
}
inline __half2_raw __nv_cvt_fp8x2_to_halfraw2(const __nv_fp8x2_storage_t x,
                                              const __nv_fp8_interpretation_t fp8_interpretation) {
  __simt_site_sass();
  const simt::cuda::fp8::Kind k = simt::cuda::fp8::kind(fp8_interpretation);
  return __half2_raw{simt::cuda::fp8::to_half(__nv_fp8_storage_t(x & 0xFF), k),
                     simt::cuda::fp8::to_half(__nv_fp8_storage_t(x >> 8), k)};
}

namespace simt::cuda::fp8 {
// fp8 -> float: to half (F2FP), then __half2float (HADD2.F32; a NaN gives 0x7FFFFFFF).
inline float to_float(__nv_fp8_storage_t x, __nv_fp8_interpretation_t i) {
  return __half2float(half_bits(__nv_cvt_fp8_to_halfraw(x, i).x));
}
// CUDA's saturating conversions to 8-bit integers: NaN gives 0, out of range the
// nearest end, otherwise truncation toward zero.
template <class I> inline I to_byte(__nv_fp8_storage_t x, __nv_fp8_interpretation_t i) {
  const float f = to_float(x, i);
  constexpr float lo = float(std::numeric_limits<I>::min()), hi = float(std::numeric_limits<I>::max());
  if (is_nan(x, kind(i))) return 0;
  if (f > hi) return std::numeric_limits<I>::max();
  if (f < lo) return std::numeric_limits<I>::min();
  return I(f);
}
}  // namespace simt::cuda::fp8

// ---- the classes --------------------------------------------------------------------
// A member reads *this, which may be device memory: the kernel's own access (load_ref).
#define SIMT_FP8_SCALAR(Name, INTERP)                                                                              \
  struct alignas(1) Name {                                                                                         \
    __nv_fp8_storage_t __x;                                                                                        \
    Name() = default;                                                                                              \
    explicit Name(const __half f)                                                                                  \
        : __x(__nv_cvt_halfraw_to_fp8(__half_raw{f.__x}, __NV_SATFINITE, INTERP)) {}                                \
    explicit Name(const __nv_bfloat16 f)                                                                           \
        : __x(__nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw{f.__x}, __NV_SATFINITE, INTERP)) {}                     \
    explicit Name(const float f) : __x(__nv_cvt_float_to_fp8(f, __NV_SATFINITE, INTERP)) {}                        \
    explicit Name(const double f) : __x(__nv_cvt_double_to_fp8(f, __NV_SATFINITE, INTERP)) {}                      \
    /* integers: through float, as CUDA's */                                                                       \
    explicit Name(const unsigned short int v) : Name(static_cast<float>(v)) {}                                     \
    explicit Name(const unsigned int v) : Name(static_cast<float>(v)) {}                                           \
    explicit Name(const unsigned long int v) : Name(static_cast<float>(v)) {}                                      \
    explicit Name(const unsigned long long int v) : Name(static_cast<float>(v)) {}                                 \
    explicit Name(const short int v) : Name(static_cast<float>(v)) {}                                              \
    explicit Name(const int v) : Name(static_cast<float>(v)) {}                                                    \
    explicit Name(const long int v) : Name(static_cast<float>(v)) {}                                               \
    explicit Name(const long long int v) : Name(static_cast<float>(v)) {}                                          \
    __nv_fp8_storage_t __simt_bits() const { return simt::cuda::narrow::load_ref(*this).__x; }                            \
    explicit operator __half() const { return __half(__nv_cvt_fp8_to_halfraw(__simt_bits(), INTERP)); }                   \
    explicit operator float() const { return simt::cuda::fp8::to_float(__simt_bits(), INTERP); }                          \
    explicit operator __nv_bfloat16() const { return __float2bfloat16_rz(float(*this)); }                          \
    explicit operator double() const { return static_cast<double>(float(*this)); }                                 \
    explicit operator unsigned char() const { return simt::cuda::fp8::to_byte<unsigned char>(__simt_bits(), INTERP); }    \
    explicit operator signed char() const { return simt::cuda::fp8::to_byte<signed char>(__simt_bits(), INTERP); }        \
    explicit operator char() const {                                                                               \
      if constexpr (char(-1) < char(0)) return char(static_cast<signed char>(*this));                              \
      else return char(static_cast<unsigned char>(*this));                                                         \
    }                                                                                                              \
    explicit operator unsigned short int() const { return __half2ushort_rz(__half(*this)); }                       \
    explicit operator unsigned int() const { return __half2uint_rz(__half(*this)); }                               \
    explicit operator unsigned long int() const {                                                                  \
      return static_cast<unsigned long>(__half2ull_rz(__half(*this)));                                             \
    }                                                                                                              \
    explicit operator unsigned long long int() const { return __half2ull_rz(__half(*this)); }                      \
    explicit operator short int() const { return __half2short_rz(__half(*this)); }                                 \
    explicit operator int() const { return __half2int_rz(__half(*this)); }                                         \
    explicit operator long int() const { return static_cast<long>(__half2ll_rz(__half(*this))); }                  \
    explicit operator long long int() const { return __half2ll_rz(__half(*this)); }                                \
    explicit operator bool() const { return (__simt_bits() & 0x7FU) != 0U; }                                              \
  };
SIMT_FP8_SCALAR(__nv_fp8_e5m2, __NV_E5M2)
SIMT_FP8_SCALAR(__nv_fp8_e4m3, __NV_E4M3)
#undef SIMT_FP8_SCALAR

#define SIMT_FP8_VECTORS(X2, X4, INTERP)                                                                            \
  struct alignas(2) X2 {                                                                                           \
    __nv_fp8x2_storage_t __x;                                                                                      \
    X2() = default;                                                                                                \
    explicit X2(const __half2 f)                                                                                   \
        : __x(__nv_cvt_halfraw2_to_fp8x2(__half2_raw{f.x.__x, f.y.__x}, __NV_SATFINITE, INTERP)) {}                  \
    explicit X2(const __nv_bfloat162 f)                                                                            \
        : __x(__nv_cvt_bfloat16raw2_to_fp8x2(__nv_bfloat162_raw{f.x.__x, f.y.__x}, __NV_SATFINITE, INTERP)) {}       \
    explicit X2(const float2 f) : __x(__nv_cvt_float2_to_fp8x2(f, __NV_SATFINITE, INTERP)) {}                      \
    explicit X2(const double2 f) : __x(__nv_cvt_double2_to_fp8x2(f, __NV_SATFINITE, INTERP)) {}                   \
    __nv_fp8x2_storage_t __simt_bits() const { return simt::cuda::narrow::load_ref(*this).__x; }                          \
    explicit operator __half2() const { return __half2(__nv_cvt_fp8x2_to_halfraw2(__simt_bits(), INTERP)); }              \
    explicit operator float2() const {                                                                             \
      const __half2_raw h = __nv_cvt_fp8x2_to_halfraw2(__simt_bits(), INTERP);                                            \
      return make_float2(__half2float(simt::cuda::fp8::half_bits(h.x)),                                            \
                         __half2float(simt::cuda::fp8::half_bits(h.y)));                                           \
    }                                                                                                              \
  };                                                                                                               \
  struct alignas(4) X4 {                                                                                           \
    __nv_fp8x4_storage_t __x;                                                                                      \
    X4() = default;                                                                                                \
    explicit X4(const __half2 flo, const __half2 fhi) : __x(pack(X2(flo).__x, X2(fhi).__x)) {}                     \
    explicit X4(const __nv_bfloat162 flo, const __nv_bfloat162 fhi) : __x(pack(X2(flo).__x, X2(fhi).__x)) {}       \
    explicit X4(const float4 f)                                                                                    \
        : __x(pack(X2(make_float2(f.x, f.y)).__x, X2(make_float2(f.z, f.w)).__x)) {}                               \
    explicit X4(const double4 f)                                                                                   \
        : __x(pack(X2(make_double2(f.x, f.y)).__x, X2(make_double2(f.z, f.w)).__x)) {}                             \
    static __nv_fp8x4_storage_t pack(__nv_fp8x2_storage_t lo, __nv_fp8x2_storage_t hi) {                           \
      return __nv_fp8x4_storage_t(hi) << 16 | lo;                                                                  \
    }                                                                                                              \
    explicit operator float4() const {                                                                             \
      const __nv_fp8x4_storage_t v = simt::cuda::narrow::load_ref(*this).__x;                                      \
      X2 lo, hi;                                                                                                   \
      lo.__x = __nv_fp8x2_storage_t(v & 0xFFFF);                                                                   \
      hi.__x = __nv_fp8x2_storage_t(v >> 16);                                                                      \
      const float2 a = float2(lo), b = float2(hi);                                                                 \
      return make_float4(a.x, a.y, b.x, b.y);                                                                      \
    }                                                                                                              \
  };
SIMT_FP8_VECTORS(__nv_fp8x2_e5m2, __nv_fp8x4_e5m2, __NV_E5M2)
SIMT_FP8_VECTORS(__nv_fp8x2_e4m3, __nv_fp8x4_e4m3, __NV_E4M3)
#undef SIMT_FP8_VECTORS

static_assert(sizeof(__nv_fp8_e4m3) == 1 && sizeof(__nv_fp8x2_e4m3) == 2 && sizeof(__nv_fp8x4_e4m3) == 4);
static_assert(alignof(__nv_fp8x2_e5m2) == 2 && alignof(__nv_fp8x4_e5m2) == 4);
