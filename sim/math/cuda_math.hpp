// CUDA 13's single-precision math functions, operation for operation as nvcc 13
// compiles them for sm_90 (read from the PTX and SASS of tests/cuda/mufu_probe.cu's
// math kernels; docs/validation/h200-mufu.md lists each function), on top of the MUFU model. Every
// step is an IEEE single-precision operation with the same rounding as the GPU's, so
// the results are the GPU's bits. Host and nvcc: the probe checks each function
// against the GPU's own over every 32-bit input.
//
// Build with -ffp-contract=off: a fused multiply-add where the sequence has a
// separate multiply and add would change the bits.
#pragma once
#include "sim/math/mufu_model.hpp"

#include <cstring>

namespace simt::mufu {

#if defined(__CUDA_ARCH__)
SIMT_MUFU_FN std::uint32_t bits_of(float x) { return __float_as_uint(x); }
SIMT_MUFU_FN float float_of(std::uint32_t b) { return __uint_as_float(b); }
SIMT_MUFU_FN float fused(float a, float b, float c) { return __fmaf_rn(a, b, c); }
SIMT_MUFU_FN float mul(float a, float b) { return __fmul_rn(a, b); }
SIMT_MUFU_FN float add(float a, float b) { return __fadd_rn(a, b); }
#else
inline std::uint32_t bits_of(float x) {
  std::uint32_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
inline float float_of(std::uint32_t b) {
  float x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}
inline float fused(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
inline float mul(float a, float b) { return a * b; }
inline float add(float a, float b) { return a + b; }
#endif
SIMT_MUFU_FN float fabs_(float x) { return float_of(bits_of(x) & 0x7fffffffu); }
SIMT_MUFU_FN float hex(std::uint32_t b) { return float_of(b); }

// FFMA.SAT: the fused result clamped to [0, 1], NaN to 0.
SIMT_MUFU_FN float fused_saturated(float a, float b, float c) {
  const float r = fused(a, b, c);
  return r > 0.0f ? (r < 1.0f ? r : 1.0f) : 0.0f;
}

// expf: 2^k from an FFMA.RM into the float's exponent field, MUFU.EX2 of the
// reduced argument (two FFMAs with log2(e) split in two).
SIMT_MUFU_FN float expf(const Tables& t, float a) {
  const float s = fused_saturated(a, hex(0x3bbb989du), 0.5f);  // a log2(e) / 252 + 1/2
#if defined(__CUDA_ARCH__)
  const float j = __fmaf_rd(s, 252.0f, 12582913.0f);
#else
  // Rounded down, s * 252 + 2^23 + 2^22 + 1 is that integer plus floor(s * 252):
  // s * 252 is exact in double.
  const float j = 12582913.0f + float(static_cast<int>(static_cast<double>(s) * 252.0));
#endif
  const float k = add(j, -12583039.0f);
  float f = fused(a, hex(0x3fb8aa3bu), -k);
  f = fused(a, hex(0x32a57060u), f);
  const float scale2k = float_of(bits_of(j) << 23);
  return mul(float_of(ex2(t, bits_of(f))), scale2k);
}

// ex2.approx.f32 (exp2f): below -126 the argument is halved and the result squared,
// so that results between 2^-149 and 2^-126 are not flushed.
SIMT_MUFU_FN float exp2f(const Tables& t, float a) {
  if (!(a >= -126.0f)) {
    const float h = float_of(ex2(t, bits_of(mul(a, 0.5f))));
    return mul(h, h);
  }
  return float_of(ex2(t, bits_of(a)));
}

SIMT_MUFU_FN float fast_expf(const Tables& t, float a) { return exp2f(t, mul(a, hex(0x3fb8aa3bu))); }  // __expf

// rsqrt.approx.f32: subnormal arguments are scaled by 2^24 first.
SIMT_MUFU_FN float rsqrtf(const Tables& t, float a) {
  if (!(fabs_(a) >= hex(0x00800000u))) return mul(float_of(rsq(t, bits_of(mul(a, 16777216.0f)))), 4096.0f);
  return float_of(rsq(t, bits_of(a)));
}

// div.approx.f32 (__fdividef): a subnormal divisor scales both operands by 2^24.
SIMT_MUFU_FN float fdividef(const Tables& t, float a, float b) {
  if (!(fabs_(b) >= hex(0x00800000u))) {
    b = mul(b, 16777216.0f);
    a = mul(a, 16777216.0f);
  }
  return mul(float_of(rcp(t, bits_of(b))), a);
}

// lg2.approx.f32 (__log2f): a subnormal argument is scaled by 2^24 and 24 subtracted.
SIMT_MUFU_FN float fast_log2f(const Tables& t, float a) {
  if (!(fabs_(a) >= hex(0x00800000u))) return add(float_of(lg2(t, bits_of(mul(a, 16777216.0f)))), -24.0f);
  return float_of(lg2(t, bits_of(a)));
}
SIMT_MUFU_FN float fast_logf(const Tables& t, float a) { return mul(fast_log2f(t, a), hex(0x3f317218u)); }    // __logf
SIMT_MUFU_FN float fast_log10f(const Tables& t, float a) { return mul(fast_log2f(t, a), hex(0x3e9a209bu)); }  // __log10f
SIMT_MUFU_FN float fast_powf(const Tables& t, float a, float b) { return exp2f(t, mul(b, fast_log2f(t, a))); }  // __powf

// tanhf: an odd polynomial below 0.6, 1 - 2 / (2^(2|a| log2 e) + 1) above.
SIMT_MUFU_FN float tanhf(const Tables& t, float a) {
  const float ax = fabs_(a);
  const float e = float_of(ex2(t, bits_of(mul(ax, hex(0x4038aa3bu)))));
  const float r = float_of(rcp(t, bits_of(add(e, 1.0f))));
  float big = fused(r, -2.0f, 1.0f);
  if (ax >= hex(0x41102cb4u)) big = 1.0f;
  big = float_of((bits_of(big) & 0x7fffffffu) | (bits_of(a) & 0x80000000u));
  const float x2 = mul(a, a);
  float p = fused(hex(0x3c80f082u), x2, hex(0xbd563caeu));
  p = fused(p, x2, hex(0x3e085941u));
  p = fused(p, x2, hex(0xbeaaa9edu));
  p = fused(p, x2, 0.0f);
  const float small = fused(p, a, a);
  return ax >= hex(0x3f19999au) ? big : small;
}

// logf: no MUFU; the mantissa is reduced around 2/3 with integer operations and a
// degree-9 polynomial gives log1p.
SIMT_MUFU_FN float logf(float a) {
  const bool subnormal = a < hex(0x00800000u);
  const float a1 = subnormal ? mul(a, 8388608.0f) : a;
  const float bias = subnormal ? -23.0f : 0.0f;
  const std::uint32_t i = bits_of(a1);
  const std::uint32_t ebits = (i - 0x3f2aaaabu) & 0xff800000u;
  const float m = float_of(i - ebits);
  const float ee = fused(float(static_cast<std::int32_t>(ebits)), hex(0x34000000u), bias);
  const float f = add(m, -1.0f);
  float p = fused(hex(0xbe055027u), f, hex(0x3e1039f6u));
  p = fused(p, f, hex(0xbdf8cdccu));
  p = fused(p, f, hex(0x3e0f2955u));
  p = fused(p, f, hex(0xbe2ad8b9u));
  p = fused(p, f, hex(0x3e4ced0bu));
  p = fused(p, f, hex(0xbe7fff22u));
  p = fused(p, f, hex(0x3eaaaa78u));
  p = fused(p, f, hex(0xbf000000u));
  float q = mul(f, p);
  q = fused(q, f, f);
  float r = fused(ee, hex(0x3f317218u), q);
  if (!(i < 0x7f800000u)) r = fused(a1, hex(0x7f800000u), hex(0x7f800000u));  // negative, inf, NaN
  return a1 == 0.0f ? hex(0xff800000u) : r;
}

}  // namespace simt::mufu
