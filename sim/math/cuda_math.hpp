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
#if defined(__CUDA_ARCH__)
SIMT_MUFU_FN float rint_(float x) { return rintf(x); }    // cvt.rni.f32.f32
SIMT_MUFU_FN float trunc_(float x) { return truncf(x); }  // cvt.rzi.f32.f32
SIMT_MUFU_FN float floor_(float x) { return floorf(x); }  // cvt.rmi.f32.f32
SIMT_MUFU_FN int to_int_rn(float x) { return __float2int_rn(x); }  // cvt.rni.s32.f32
SIMT_MUFU_FN int to_int_rz(float x) { return __float2int_rz(x); }  // cvt.rzi.s32.f32
SIMT_MUFU_FN float to_float(int i) { return __int2float_rn(i); }   // cvt.rn.f32.s32
SIMT_MUFU_FN float add_rz(float a, float b) { return __fadd_rz(a, b); }  // add.rz.f32
#else
inline float rint_(float x) { return __builtin_rintf(x); }
inline float trunc_(float x) { return __builtin_truncf(x); }
inline float floor_(float x) { return __builtin_floorf(x); }
// The GPU's float-to-int conversions saturate and turn NaN into 0.
inline int saturated_int(float r) {
  if (r != r) return 0;
  if (r >= 2147483648.0f) return 0x7fffffff;
  if (r < -2147483648.0f) return int(0x80000000u);
  return static_cast<int>(r);
}
inline int to_int_rn(float x) { return saturated_int(__builtin_rintf(x)); }
inline int to_int_rz(float x) { return saturated_int(__builtin_truncf(x)); }
inline float to_float(int i) { return static_cast<float>(i); }
// a + b rounded toward zero: the round-to-nearest sum, one unit toward zero where
// it is farther from zero than the exact sum (whose error TwoSum gives exactly).
inline float add_rz(float a, float b) {
  const float s = a + b;
  if (s - s != 0.0f) {  // inf or NaN: an overflow of finite operands stops at FLT_MAX
    if (a - a == 0.0f && b - b == 0.0f) return float_of((bits_of(s) & kSign) | 0x7f7fffffu);
    return s;
  }
  const float bb = s - a;
  const float e = (a - (s - bb)) + (b - bb);
  if (e != 0.0f && ((e < 0.0f) != (s < 0.0f))) return float_of(bits_of(s) - 1u);
  return s;
}
#endif
SIMT_MUFU_FN float fabs_(float x) { return float_of(bits_of(x) & 0x7fffffffu); }
// PTX copysign.f32 d, a, b: b's magnitude with a's sign.
SIMT_MUFU_FN float copysign_(float sign_of, float magnitude) {
  return float_of((bits_of(magnitude) & 0x7fffffffu) | (bits_of(sign_of) & kSign));
}
SIMT_MUFU_FN float hex(std::uint32_t b) { return float_of(b); }

// IEEE division and square root (div.rn.f32, sqrt.rn.f32: not MUFU's approximations),
// and double precision's operations and bits.
#if defined(__CUDA_ARCH__)
SIMT_MUFU_FN float div_rn(float a, float b) { return __fdiv_rn(a, b); }
SIMT_MUFU_FN float sqrt_rn(float a) { return __fsqrt_rn(a); }
SIMT_MUFU_FN double dfma(double a, double b, double c) { return __fma_rn(a, b, c); }
SIMT_MUFU_FN double dmul(double a, double b) { return __dmul_rn(a, b); }
SIMT_MUFU_FN double dadd(double a, double b) { return __dadd_rn(a, b); }
SIMT_MUFU_FN std::uint64_t bits_of(double x) { return static_cast<std::uint64_t>(__double_as_longlong(x)); }
SIMT_MUFU_FN double double_of(std::uint64_t b) { return __longlong_as_double(static_cast<long long>(b)); }
#else
inline float div_rn(float a, float b) { return a / b; }
inline float sqrt_rn(float a) { return __builtin_sqrtf(a); }
inline double dfma(double a, double b, double c) { return __builtin_fma(a, b, c); }
inline double dmul(double a, double b) { return a * b; }
inline double dadd(double a, double b) { return a + b; }
inline std::uint64_t bits_of(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
inline double double_of(std::uint64_t b) {
  double x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}
#endif
SIMT_MUFU_FN double hexd(std::uint64_t b) { return double_of(b); }
SIMT_MUFU_FN std::uint32_t hi_word(double x) { return std::uint32_t(bits_of(x) >> 32); }
SIMT_MUFU_FN std::uint32_t lo_word(double x) { return std::uint32_t(bits_of(x)); }
SIMT_MUFU_FN double from_words(std::uint32_t hi, std::uint32_t lo) { return double_of(std::uint64_t(hi) << 32 | lo); }

// FFMA.SAT: the fused result clamped to [0, 1], NaN to 0.
SIMT_MUFU_FN float fused_saturated(float a, float b, float c) {
  const float r = fused(a, b, c);
  return r > 0.0f ? (r < 1.0f ? r : 1.0f) : 0.0f;
}

// FFMA.RM s * 252 + 12582913 for s in [0, 1] (expf, exp10f): 2^23 + 2^22 + 1 plus
// floor(s * 252), whose low bits then hold the power of two's exponent.
SIMT_MUFU_FN float fused_rm_252(float s) {
#if defined(__CUDA_ARCH__)
  return __fmaf_rd(s, 252.0f, 12582913.0f);
#else
  // s * 252 is exact in double.
  return 12582913.0f + float(static_cast<int>(static_cast<double>(s) * 252.0));
#endif
}

// expf's sequence, for e^a (c252 = log2(e)/252, hi + lo = log2(e)) and 10^a (log2(10)):
// 2^k from an FFMA.RM into the float's exponent field, MUFU.EX2 of the reduced
// argument (two FFMAs with the constant split in two).
SIMT_MUFU_FN float exp_by_ex2(const Tables& t, float a, std::uint32_t c252, std::uint32_t hi, std::uint32_t lo) {
  const float s = fused_saturated(a, hex(c252), 0.5f);  // a c / 252 + 1/2
  const float j = fused_rm_252(s);
  const float k = add(j, -12583039.0f);
  float f = fused(a, hex(hi), -k);
  f = fused(a, hex(lo), f);
  const float scale2k = float_of(bits_of(j) << 23);
  return mul(float_of(ex2(t, bits_of(f))), scale2k);
}
SIMT_MUFU_FN float expf(const Tables& t, float a) { return exp_by_ex2(t, a, 0x3bbb989du, 0x3fb8aa3bu, 0x32a57060u); }

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

// sin/cos.approx (__sinf, __cosf, __sincosf): FMUL.RZ by 1/2pi and MUFU.SIN/COS;
// __tanf divides the two with div.approx.f32.
SIMT_MUFU_FN float fast_sinf(const Tables& t, float a) { return float_of(sin_cos(t, bits_of(a), false)); }
SIMT_MUFU_FN float fast_cosf(const Tables& t, float a) { return float_of(sin_cos(t, bits_of(a), true)); }
SIMT_MUFU_FN float fast_tanf(const Tables& t, float a) { return fdividef(t, fast_sinf(t, a), fast_cosf(t, a)); }

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

// The logarithm reduction: m in [0.707, 1.414) (log2f, powf) or [0.667, 1.333)
// (log10f), e the exponent; subnormals scaled by 2^23 (2^24 for powf).
struct LogReduced {
  float m, e;
};
SIMT_MUFU_FN LogReduced log_reduce(float a, std::uint32_t center, float bias) {
  const std::uint32_t i = bits_of(a);
  const std::uint32_t ebits = (i - center) & 0xff800000u;
  return {float_of(i - ebits), fused(to_float(static_cast<std::int32_t>(ebits)), hex(0x34000000u), bias)};
}

// Subnormal arguments of the logarithms are scaled by 2^23 (the bias takes 23 off).
struct LogArgument {
  float a1, bias;
};
SIMT_MUFU_FN LogArgument log_argument(float a) {
  const bool subnormal = a < hex(0x00800000u);
  return {subnormal ? mul(a, 8388608.0f) : a, subnormal ? -23.0f : 0.0f};
}

// logf's sequence up to its zero test (log10f scales it): the mantissa reduced around
// 2/3 with integer operations, a degree-9 polynomial for log1p; negatives, inf and NaN
// through an FFMA with inf, as the GPU does.
SIMT_MUFU_FN float natural_log(LogArgument x) {
  const LogReduced lr = log_reduce(x.a1, 0x3f2aaaabu, x.bias);
  const float f = add(lr.m, -1.0f);
  float p = fused(hex(0xbe055027u), f, hex(0x3e1039f6u));
  p = fused(p, f, hex(0xbdf8cdccu));
  p = fused(p, f, hex(0x3e0f2955u));
  p = fused(p, f, hex(0xbe2ad8b9u));
  p = fused(p, f, hex(0x3e4ced0bu));
  p = fused(p, f, hex(0xbe7fff22u));
  p = fused(p, f, hex(0x3eaaaa78u));
  p = fused(p, f, hex(0xbf000000u));
  const float q = fused(mul(f, p), f, f);
  float r = fused(lr.e, hex(0x3f317218u), q);
  if (!(bits_of(x.a1) < 0x7f800000u)) r = fused(x.a1, hex(0x7f800000u), hex(0x7f800000u));
  return r;
}

// logf: no MUFU.
SIMT_MUFU_FN float logf(float a) {
  const LogArgument x = log_argument(a);
  const float r = natural_log(x);
  return x.a1 == 0.0f ? hex(0xff800000u) : r;
}

// --- Functions added from nvcc 13's PTX for sm_90 (--fmad=false), read from the
// kernels of tests/cuda/mufu_probe.cu. Each line is one PTX operation; the comments
// say what the step computes.

// A subnormal result of FMUL.FTZ / an FTZ operand is zero with its sign.
SIMT_MUFU_FN float flush(float x) {
  return (bits_of(x) & 0x7f800000u) == 0 ? float_of(bits_of(x) & kSign) : x;
}

// div.approx.ftz.f32 a / b: MUFU.RCP b, FMUL.FTZ by a (operands and result flushed).
SIMT_MUFU_FN float fdividef_ftz(const Tables& t, float a, float b) {
  return flush(mul(float_of(rcp(t, bits_of(b))), flush(a)));
}

// The 192 bits of 2/pi that sinf, cosf and tanf's large-argument reduction reads,
// least significant word first (2/pi = 0.a2f9836e 4e441529 fc2757d1 ...).
SIMT_MUFU_FN std::uint32_t two_over_pi_word(int i) {
  constexpr std::uint32_t w[6] = {0x3c439041u, 0xdb629599u, 0xf534ddc0u, 0xfc2757d1u, 0x4e441529u, 0xa2f9836eu};
  return w[i];
}

// x = q * pi/2 + r, |r| <= pi/4 (about), as sinf/cosf/sincosf/tanf do it.
struct Reduced {
  float r;
  int q;  // the quadrant; only its two low bits are used
};
SIMT_MUFU_FN Reduced reduce_half_pi(float x) {
  // Below 105615: q = rint(x * 2/pi), r = x - q * pi/2 with pi/2 split in three.
  int q = to_int_rn(mul(x, hex(0x3f22f983u)));
  const float qf = to_float(q);
  float r = fused(qf, hex(0xbfc90fdau), x);
  r = fused(qf, hex(0xb3a22168u), r);
  r = fused(qf, hex(0xa7c234c5u), r);
  const float ax = fabs_(x);
  if (!(ax >= hex(0x47ce4780u))) return {r, q};  // also NaN
  if (ax == hex(0x7f800000u)) return {mul(x, 0.0f), 0};  // inf: NaN
  // Payne-Hanek: the 32-bit mantissa (hidden bit on top) times 2/pi's 192 bits,
  // six 32x32 products with carries into p[0..6].
  const std::uint32_t xb = bits_of(x);
  const std::uint32_t e = ((xb >> 23) & 0xffu) - 128u;  // >= 15 here
  const std::uint32_t m = (xb << 8) | 0x80000000u;
  std::uint32_t p[7];
  std::uint64_t carry = 0;
  for (int i = 0; i < 6; ++i) {
    const std::uint64_t v = std::uint64_t(two_over_pi_word(i)) * m + carry;
    p[i] = std::uint32_t(v);
    carry = v >> 32;
  }
  p[6] = std::uint32_t(carry);
  // The 64 bits at the binary point of x * 2/pi: words 6 - e/32 and the one below,
  // shifted left by e % 32 with bits from the next word down.
  const int word = int(e >> 5);
  std::uint32_t hi = p[6 - word], lo = p[5 - word];
  const std::uint32_t sh = e & 31u;
  if (sh != 0) {
    hi = (lo >> (32u - sh)) + (hi << sh);
    lo = (p[4 - word] >> (32u - sh)) + (lo << sh);
  }
  const std::uint32_t sign = xb & kSign;
  // hi's top two bits are the quadrant; bit 29 says the fraction is over one half:
  // then it is taken as the (negative) distance to the next quadrant.
  const std::uint32_t f = (lo >> 30) | (hi << 2);
  const std::uint32_t up = f >> 31;
  const int quadrant = int(up + (hi >> 30));
  q = sign == 0 ? quadrant : -quadrant;
  const std::uint32_t rsign = up != 0 ? sign ^ kSign : sign;
  const std::uint32_t invert = up != 0 ? 0xffffffffu : 0u;
  const std::uint64_t frac = (std::uint64_t(f ^ invert) << 32) | ((lo << 2) ^ invert);
  // The fraction, a signed 64-bit fixed-point number, times pi/2 * 2^-64 in double.
  const double d = static_cast<double>(static_cast<std::int64_t>(frac)) * 0x1.921fb54442d19p-64;  // pi/2 * 2^-64
  const float rf = static_cast<float>(d);
  return {rsign == 0 ? rf : -rf, q};
}

// The sine and cosine polynomials of the reduced argument.
SIMT_MUFU_FN float sin_poly(float r, float r2) {
  float p = fused(hex(0xb94d4153u), r2, hex(0x3c0885e4u));
  p = fused(p, r2, hex(0xbe2aaaa8u));
  return fused(p, fused(r2, r, 0.0f), r);  // r + r^3 p
}
SIMT_MUFU_FN float cos_poly(float r2) {
  float p = fused(hex(0x37cbac00u), r2, hex(0xbab607edu));
  p = fused(p, r2, hex(0x3d2aaabbu));
  p = fused(p, r2, hex(0xbeffffffu));
  return fused(p, fused(r2, 1.0f, 0.0f), 1.0f);  // 1 + r^2 p
}

// sinf, cosf: q even gives the sine polynomial (cosf: q + 1), bit 1 the sign,
// applied as an FFMA r * -1 + 0.
SIMT_MUFU_FN float sin_cos(float x, int shift) {
  const Reduced red = reduce_half_pi(x);
  const int q = red.q + shift;
  const float r2 = mul(red.r, red.r);
  float v = (q & 1) == 0 ? sin_poly(red.r, r2) : cos_poly(r2);
  if (q & 2) v = fused(v, -1.0f, 0.0f);
  return v;
}
SIMT_MUFU_FN float sinf(float x) { return sin_cos(x, 0); }
SIMT_MUFU_FN float cosf(float x) { return sin_cos(x, 1); }

// sincosf: both polynomials, swapped for odd q, signs by negation (bit 1 of q for
// the sine, of q + 1 for the cosine).
SIMT_MUFU_FN void sincosf(float x, float* s, float* c) {
  const Reduced red = reduce_half_pi(x);
  const float r2 = mul(red.r, red.r);
  const float cv = cos_poly(r2), sv = sin_poly(red.r, r2);
  const bool odd = red.q & 1;
  const float a = odd ? cv : sv, b = odd ? sv : cv;
  *s = (red.q & 2) == 0 ? a : -a;
  *c = ((red.q + 1) & 2) == 0 ? b : -b;
}

// tanf: an odd polynomial of the reduced argument; for odd q, MUFU.RCP of its negation.
SIMT_MUFU_FN float tanf(const Tables& t, float x) {
  const Reduced red = reduce_half_pi(x);
  const float r = red.r, r2 = mul(r, r);
  float p = fused(hex(0x3c190000u), r2, hex(0x3b560000u));
  p = fused(p, r2, hex(0x3cc70000u));
  p = fused(p, r2, hex(0x3d5b0000u));
  p = fused(p, r2, hex(0x3e089438u));
  p = fused(p, r2, hex(0x3eaaaa88u));
  float v = fused(p, mul(r2, r), r);
  if (fabs_(r) == hex(0x3a00b43cu)) v = r;
  return (red.q & 1) ? float_of(rcp(t, bits_of(-v))) : v;
}

// e^|x| / 4 for coshf, sinhf: k = trunc(|x| log2 e) (at most 126), 2^(k-2) built in
// an exponent field, MUFU.EX2 of (|x| - k ln 2) log2 e with ln 2 split in two.
SIMT_MUFU_FN float exp_quarter(const Tables& t, float ax) {
  float k = trunc_(mul(ax, hex(0x3fb8aa3bu)));
  if (fabs_(k) > 126.0f) k = copysign_(k, 126.0f);
  float f = fused(k, hex(0xbf317218u), ax);
  f = fused(k, hex(0x3102e308u), f);
  f = mul(f, hex(0x3fb8aa3bu));
  const float scale = float_of(bits_of(add(k, hex(0x4b40007du))) << 23);
  return mul(float_of(ex2(t, bits_of(f))), scale);
}

// coshf: 2 (e^|x|/4) + (1/8) / (e^|x|/4).
SIMT_MUFU_FN float coshf(const Tables& t, float x) {
  const float q = exp_quarter(t, fabs_(x));
  return fused(2.0f, q, fdividef_ftz(t, 0.125f, q));
}

// sinhf: from |x| >= 1, 2 (e^|x|/4) - (1/8) / (e^|x|/4) with x's sign; below, an odd
// polynomial.
SIMT_MUFU_FN float sinhf(const Tables& t, float x) {
  const float ax = fabs_(x);
  const float q = exp_quarter(t, ax);
  const float big = fused(2.0f, q, fdividef_ftz(t, -0.125f, q));
  const float x2 = mul(x, x);
  float p = fused(hex(0x363d0adau), x2, hex(0x394fff49u));
  p = fused(p, x2, hex(0x3c08889au));
  p = fused(p, x2, hex(0x3e2aaaabu));
  const float small = fused(mul(x2, p), x, x);
  return ax >= 1.0f ? copysign_(x, big) : small;
}

// erff: below 1.00296 a polynomial in x^2 times x; above, 1 - 2^(polynomial in |x|).
SIMT_MUFU_FN float erff(const Tables& t, float x) {
  const float ax = fabs_(x);
  const bool big = ax >= hex(0x3f8060feu);
  const float v = big ? ax : mul(x, x);
  float p = fused(big ? hex(0x38eb4c3au) : hex(0x38b1e96au), v, big ? hex(0xbaae005bu) : hex(0xba574d20u));
  p = fused(p, v, big ? hex(0x3c09919fu) : hex(0x3baad5eau));
  p = fused(p, v, big ? hex(0xbd24d99au) : hex(0xbcdc1be7u));
  p = fused(p, v, big ? hex(0x3e235519u) : hex(0x3de718afu));
  p = fused(p, v, big ? hex(0x3f69b4f9u) : hex(0xbec093acu));
  p = fused(p, v, big ? hex(0x3f210a14u) : hex(0x3e0375d3u));
  const float w = big ? -ax : x;
  float r = fused(p, w, w);
  if (!(ax < hex(0x3f8060feu))) r = copysign_(x, add(1.0f, -float_of(ex2(t, bits_of(r)))));
  return r;
}

// erfcf: t = (|x| - 4) / (|x| + 4) refined once, a degree-10 polynomial in t, divided
// by 1 + 2|x| (MUFU.RCP and one correction), times e^(-x^2) (as expf, with the
// rounding error of x^2 folded back in); 0 above 10.06, 2 - that for x < 0.
SIMT_MUFU_FN float erfcf(const Tables& t, float x) {
  const float ax = fabs_(x);
  const float num = add(ax, -4.0f);
  const float rd = float_of(rcp(t, bits_of(add(ax, 4.0f))));
  const float q0 = mul(num, rd);
  const float e1 = fused(-4.0f, add(q0, 1.0f), ax);
  const float e2 = fused(-q0, ax, e1);
  const float q = fused(rd, e2, q0);
  float p = fused(hex(0x3a69a091u), q, hex(0x3be6e05bu));
  p = fused(p, q, hex(0xbc81fb4bu));
  p = fused(p, q, hex(0x3d15373bu));
  p = fused(p, q, hex(0xbd887c5au));
  p = fused(p, q, hex(0x3dc021d5u));
  p = fused(p, q, hex(0xbdced424u));
  p = fused(p, q, hex(0x3d8b74deu));
  p = fused(p, q, hex(0x3c7bf170u));
  p = fused(p, q, hex(0xbe0ef8d4u));
  p = fused(p, q, hex(0x3f9dd2c9u));
  const float r2 = float_of(rcp(t, bits_of(fused(2.0f, ax, 1.0f))));
  const float d0 = mul(p, r2);
  const float d1 = fused(ax, mul(d0, -2.0f), p);
  const float d = fused(add(d1, -d0), r2, d0);
  // e^(-x^2): k = trunc(-x^2 log2 e) clamped to -126, MUFU.EX2 of the rest, 2^k.
  const float x2 = mul(ax, ax);
  const float nx2 = -x2;
  float k = trunc_(mul(nx2, hex(0x3fb8aa3bu)));
  if (fabs_(k) > 126.0f) k = copysign_(k, 126.0f);
  float f = fused(k, hex(0xbf317218u), nx2);
  f = fused(k, hex(0x3102e308u), f);
  f = mul(f, hex(0x3fb8aa3bu));
  const float scale = float_of(bits_of(add(k, hex(0x4b40007fu))) << 23);
  const float ex = mul(float_of(ex2(t, bits_of(f))), scale);
  const float ex_fixed = fused(ex, fused(-ax, ax, x2), ex);  // e^(-x^2) (1 + (x^2 - |x||x|))
  float r = mul(d, ex_fixed);
  if (ax > hex(0x4120e148u)) r = 0.0f;
  return x < 0.0f ? add(2.0f, -r) : r;
}

// log2f: a degree-9 polynomial for log2(1 + f) / f - log2 e ... added to e.
SIMT_MUFU_FN float log2f(float a) {
  const LogArgument x = log_argument(a);
  const float a1 = x.a1;
  const LogReduced lr = log_reduce(a1, 0x3f3504f3u, x.bias);
  const float f = add(lr.m, -1.0f);
  float p = fused(hex(0x3dc6b27fu), f, hex(0xbe2c7f30u));
  p = fused(p, f, hex(0x3e2fcf2au));
  p = fused(p, f, hex(0xbe374e43u));
  p = fused(p, f, hex(0x3e520bf4u));
  p = fused(p, f, hex(0xbe763c8bu));
  p = fused(p, f, hex(0x3e93bf99u));
  p = fused(p, f, hex(0xbeb8aa49u));
  p = fused(p, f, hex(0x3ef6384au));
  p = fused(p, f, hex(0xbf38aa3bu));
  const float q = mul(f, mul(f, p));
  float r = add(lr.e, fused(f, hex(0x3fb8aa3bu), q));
  if (!(bits_of(a1) < 0x7f800000u)) r = fused(a1, hex(0x7f800000u), hex(0x7f800000u));  // negative, inf, NaN
  return a1 == 0.0f ? hex(0xff800000u) : r;
}

// log10f: logf's sequence, times log10(e).
SIMT_MUFU_FN float log10f(float a) {
  const LogArgument x = log_argument(a);
  const float v = mul(natural_log(x), hex(0x3ede5bd9u));
  return x.a1 == 0.0f ? hex(0xff800000u) : v;
}

// log1pf: 1 + x rounded toward zero gives the exponent k; (1 + x) 2^-k - 1 is formed
// as (2^-k - 1) + x 2^-k with integer exponent arithmetic, then a degree-9 polynomial.
SIMT_MUFU_FN float log1pf(float x) {
  const std::uint32_t kbits = (bits_of(add_rz(x, 1.0f)) - 0x3f400000u) & 0xff800000u;
  const std::uint32_t xb = bits_of(x);
  const float xs = float_of(xb - kbits);                       // x 2^-k
  const float four_scaled = float_of(0x40800000u - kbits);     // 4 2^-k
  const float f = add(fused(0.25f, four_scaled, -1.0f), xs);   // (1 + x) 2^-k - 1
  const float k = mul(to_float(static_cast<std::int32_t>(kbits)), hex(0x34000000u));
  float p = fused(hex(0xbd39bf78u), f, hex(0x3dd80012u));
  p = fused(p, f, hex(0xbe0778e0u));
  p = fused(p, f, hex(0x3e146475u));
  p = fused(p, f, hex(0xbe2a68ddu));
  p = fused(p, f, hex(0x3e4caf9eu));
  p = fused(p, f, hex(0xbe800042u));
  p = fused(p, f, hex(0x3eaaaae6u));
  p = fused(p, f, hex(0xbf000000u));
  const float q = fused(mul(f, p), f, f);
  float r = fused(k, hex(0x3f317218u), q);
  if (!(xb < 0x7f800000u)) {  // negative, inf, NaN
    if (!(static_cast<std::int32_t>(xb) < static_cast<std::int32_t>(0xbf800001u)))  // below -1, inf, NaN
      r = fused(x, hex(0x7f800000u), hex(0x7f800000u));
    if (x == 0.0f) r = -0.0f;
  }
  return r;
}

// expm1f: x = k ln 2 + f (k = 0 below 0.41), e^f - 1 by a polynomial, then
// 2^k (e^f - 1) + (2^k - 1) with 2^k from ex2.approx.f32; k = 128 is done as 2 * 2^127.
SIMT_MUFU_FN float expm1f(const Tables& t, float x) {
  float k = rint_(mul(x, hex(0x3fb8aa3bu)));
  if (fabs_(x) < hex(0x3ed1eb85u)) k = 0.0f;
  float f = fused(-k, hex(0x3f317200u), x);
  f = fused(-k, hex(0x35bfbe8eu), f);
  const bool top = k == 128.0f;
  const float kk = top ? add(k, -1.0f) : k;
  float p = fused(hex(0x3ab5ebe6u), f, hex(0x3c095663u));
  p = fused(p, f, hex(0x3d2aabe3u));
  p = fused(p, f, hex(0x3e2aa9f6u));
  p = fused(p, f, hex(0x3efffffeu));
  const float em1 = fused(mul(f, p), f, f);
  const float two_k = exp2f(t, kk);
  float r = fused(em1, two_k, add(two_k, -1.0f));
  if (top) r = add(r, r);
  if (kk > 128.0f) r = hex(0x7f800000u);
  if (kk < -25.0f) r = -1.0f;
  return x == 0.0f ? add(x, x) : r;
}

// exp10f: expf's sequence with log2(10) in place of log2(e).
SIMT_MUFU_FN float exp10f(const Tables& t, float a) { return exp_by_ex2(t, a, 0x3c57fa62u, 0x40549a78u, 0x33979a37u); }

// atanf: above 1, pi/2 - atan(1/|x|) with MUFU.RCP; an odd degree-15 polynomial.
SIMT_MUFU_FN float atanf(const Tables& t, float x) {
  const float ax = fabs_(x);
  const float v = ax > 1.0f ? float_of(rcp(t, bits_of(ax))) : ax;
  const float v2 = mul(v, v);
  float p = fused(hex(0x3b2090aau), v2, hex(0xbc6be14fu));
  p = fused(p, v2, hex(0x3d23397eu));
  p = fused(p, v2, hex(0xbd948a7au));
  p = fused(p, v2, hex(0x3dd76b21u));
  p = fused(p, v2, hex(0xbe111e88u));
  p = fused(p, v2, hex(0x3e4caf60u));
  p = fused(p, v2, hex(0xbeaaaa27u));
  float r = fused(mul(v2, p), v, v);
  if (!(ax <= 1.0f)) r = fused(hex(0x3f6ee581u), hex(0x3fd774ebu), -r);  // pi/2 - r
  return ax <= hex(0x7f800000u) ? copysign_(x, r) : r;
}

// powf(x, y) = 2^(y log2 x): log2 |x| in double-float (hi + lo) from an atanh series,
// times y with the product's error, and 2^ by a polynomial (no MUFU.EX2), scaled in two
// steps; then C's special cases.
SIMT_MUFU_FN float powf(const Tables& t, float x, float y) {
  const float half = trunc_(mul(y, 0.5f));
  const float odd = fabs_(add(y, -add(half, half)));  // 1 for an odd integer y
  const float ax = fabs_(x);
  const bool subnormal = ax < hex(0x00800000u);
  const float a1 = subnormal ? mul(ax, 16777216.0f) : ax;
  const LogReduced lr = log_reduce(a1, 0x3f3504f3u, subnormal ? -24.0f : 0.0f);
  const float m1 = add(lr.m, -1.0f);
  const float rp = float_of(rcp(t, bits_of(add(lr.m, 1.0f))));
  const float u = mul(add(m1, m1), rp);  // 2 (m - 1) / (m + 1)
  const float u2 = mul(u, u);
  const float ue = mul(rp, fused(-u, m1, add(add(m1, -u), add(m1, -u))));  // u's error
  float p = fused(hex(0x3a2c32e4u), u2, hex(0x3b52e7dbu));
  p = fused(p, u2, hex(0x3c93bb73u));
  p = fused(p, u2, hex(0x3df6384fu));
  p = mul(p, u2);
  const float hi0 = fused(u, hex(0x3fb8aa3bu), lr.e);
  float lo = fused(u, hex(0x3fb8aa3bu), add(lr.e, -hi0));
  lo = fused(ue, hex(0x3fb8aa3bu), lo);
  lo = fused(u, hex(0x32a55e34u), lo);
  lo = fused(mul(p, 3.0f), ue, lo);
  lo = fused(p, u, lo);
  const float l_hi = add(hi0, lo);
  const float l_lo = add(lo, -add(l_hi, -hi0));
  // y log2|x| = z + z_lo
  const float z = mul(l_hi, y);
  const float z_lo = fused(l_lo, y, fused(l_hi, y, -z));
  const float n = rint_(z);
  const float g = add(z_lo, add(z, -n));
  float e = fused(hex(0x391fcb8eu), g, hex(0x3aaf85edu));
  e = fused(e, g, hex(0x3c1d9856u));
  e = fused(e, g, hex(0x3d6357bbu));
  e = fused(e, g, hex(0x3e75fdecu));
  e = fused(e, g, hex(0x3f317218u));
  e = fused(e, g, 1.0f);  // 2^g
  // 2^n as two factors: 2^127 or 2^-123 times 2^(n - 127) or 2^(n + 123), in bits.
  const std::uint32_t ni = std::uint32_t(to_int_rz(n));
  const std::uint32_t off = n > 0.0f ? 0u : 0x83000000u;
  float v = mul(mul(e, float_of(off + 0x7f000000u)), float_of((ni << 23) - off));
  if (fabs_(z) > 152.0f) v = z < 0.0f ? 0.0f : hex(0x7f800000u);
  // Special cases.
  if (x == 1.0f || y == 0.0f) return 1.0f;
  if (!(ax <= hex(0x7f800000u)) || !(fabs_(y) <= hex(0x7f800000u))) return add(x, y);  // NaN
  if (x == 0.0f || ax == hex(0x7f800000u)) {
    const std::uint32_t b = bits_of(add(x, x));
    const std::uint32_t r = y < 0.0f ? b ^ 0x7f800000u : b;  // 0 <-> inf for y < 0
    return float_of(odd == 1.0f ? r : r & 0x7fffffffu);
  }
  if (x == -1.0f && fabs_(y) == hex(0x7f800000u)) return 1.0f;
  if (!(x < 0.0f)) return v;
  const float s = odd == 1.0f ? -v : v;
  return floor_(y) != y ? float_of(kNaN) : s;
}

// asinf, acosf above 0.56: sqrt((1 - |x|) / 2) from MUFU.RSQ (rsqrt.approx.ftz) and
// one correction; 0 for |x| = 1 (where the RSQ of 0 is inf).
SIMT_MUFU_FN float half_one_minus_sqrt(const Tables& t, float ax) {
  const float h = fused(0.5f, -ax, 0.5f);          // (1 - |x|) / 2
  const float r = float_of(rsq(t, bits_of(h)));   // 1 / sqrt(h)
  const float s = mul(h, r);                       // sqrt(h)
  const float hr = mul(r, 0.5f);                   // 1 / (2 sqrt(h))
  const float e = fused(-s, hr, 0.5f);             // (h - s^2) / (2h), about
  const float q = fused(s, e, s);                  // s + s e
  return ax == 1.0f ? 0.0f : q;
}

// asinf: up to 0.56 an odd polynomial of |x| (four FFMAs, FMUL, FFMA v + v^3 p);
// above, of s = sqrt((1 - |x|) / 2), then pi/2 - 2 asin(s); x's sign unless NaN.
SIMT_MUFU_FN float asinf(const Tables& t, float x) {
  const float ax = fabs_(x);
  const bool big = ax > hex(0x3f0f5c29u);
  const float v = big ? half_one_minus_sqrt(t, ax) : ax;
  const float v2 = mul(v, v);
  float p = fused(hex(0x3d4dd2f7u), v2, hex(0x3c99ca97u));
  p = fused(p, v2, hex(0x3d3f90e8u));
  p = fused(p, v2, hex(0x3d993ccfu));
  p = fused(p, v2, hex(0x3e2aac04u));
  const float w = fused(mul(v2, p), v, v);
  const float r = big ? fused(hex(0x3f6ee581u), hex(0x3fd774ebu), mul(w, -2.0f)) : w;  // pi/2 - 2w
  return r <= hex(0x7f800000u) ? copysign_(x, r) : r;
}

// acosf: the same reduction with x's sign on the polynomial's argument (another
// polynomial: five FFMAs, FMUL, FFMA); pi/2 - asin(x) up to 0.56, 2 asin(s) above
// 0.56, 2 (pi/2 + asin(-s)) = 2 (pi/2 - asin(s)) below -0.56.
SIMT_MUFU_FN float acosf(const Tables& t, float x) {
  const float ax = fabs_(x);
  const bool big = ax > hex(0x3f0f5c29u);
  const float v = copysign_(x, big ? half_one_minus_sqrt(t, ax) : ax);
  const float v2 = mul(v, v);
  float p = fused(hex(0x3d10ecefu), v2, hex(0x3c8b1abbu));
  p = fused(p, v2, hex(0x3cfc028cu));
  p = fused(p, v2, hex(0x3d372139u));
  p = fused(p, v2, hex(0x3d9993dbu));
  p = fused(p, v2, hex(0x3e2aaac6u));
  const float w = fused(mul(v2, p), v, v);
  const float c = fused(hex(0x3f6ee581u), hex(0x3fd774ebu), big ? w : -w);  // pi/2 -+ w
  const float r = x > hex(0x3f0f5c29u) ? w : c;
  return big ? add(r, r) : r;
}

// atan2f(y, x): q = min(|x|, |y|) / max(|x|, |y|) by IEEE division (div.rn.f32), an odd
// degree-17 polynomial (eight FFMAs, FMUL, FFMA q + q^3 p); then by the octant pi/2 - r,
// pi/2 + r or pi - r (pi/2 and pi as products of two floats); pi/4 or 3pi/4 where
// |x| = |y|, 0 or pi where both are 0; y's sign; NaN as |x| + |y|.
SIMT_MUFU_FN float atan2f(float y, float x) {
  const float ax = fabs_(x), ay = fabs_(y);
  const bool steep = ay > ax;
  const float hi = steep ? ay : ax, lo = steep ? ax : ay;
  const float q = div_rn(lo, hi);
  const float q2 = mul(q, q);
  float p = fused(hex(0x3b33710bu), q2, hex(0xbc807748u));
  p = fused(p, q2, hex(0x3d2cdab2u));
  p = fused(p, q2, hex(0xbd992d10u));
  p = fused(p, q2, hex(0x3dd9ea6cu));
  p = fused(p, q2, hex(0xbe117cb1u));
  p = fused(p, q2, hex(0x3e4cbce0u));
  p = fused(p, q2, hex(0xbeaaaa7du));
  float r = fused(mul(q2, p), q, q);
  const bool x_negative = bits_of(x) & kSign;  // the sign bit: -0 counts
  if (steep) {
    r = x_negative ? fused(hex(0x3f6ee581u), hex(0x3fd774ebu), r) : fused(hex(0x3f6ee581u), hex(0x3fd774ebu), -r);
  } else if (x_negative) {
    r = fused(hex(0x3feee581u), hex(0x3fd774ebu), -r);  // pi - r
  }
  const float on_axis = x_negative ? hex(0x40490fdbu) : 0.0f;                 // pi, 0
  const float diagonal = x_negative ? hex(0x4016cbe4u) : hex(0x3f490fdbu);   // 3pi/4, pi/4
  if (ax == ay) r = diagonal;
  if (hi == 0.0f) r = on_axis;
  const float sum = add(ax, ay);
  return !(fabs_(sum) <= hex(0x7f800000u)) ? sum : copysign_(y, r);
}

// cbrtf: c = |x| 2^(-2/3 log2|x|) with lg2.approx.f32 (subnormals scaled) and
// ex2.approx.ftz.f32, one Newton step c + c (1 - c e c) / 3; x's sign; x + x where that
// equals x (0, inf). log2x is lg2.approx.f32 of |x| (nvcc folds it for a constant x).
SIMT_MUFU_FN float cbrtf_from_log2(const Tables& t, float x, float log2x) {
  const float ax = fabs_(x);
  const float e = float_of(ex2(t, bits_of(mul(log2x, hex(0xbf2aaaabu)))));  // |x|^(-2/3)
  const float c = mul(ax, e);                             // |x|^(1/3)
  const float d = fused(c, -mul(e, c), 1.0f);             // 1 - c e c
  const float r = fused(c, mul(d, hex(0x3eaaaaabu)), c);  // c + c d / 3
  const float s = x < 0.0f ? -r : r;
  const float xx = add(x, x);
  return xx == x ? xx : s;
}
SIMT_MUFU_FN float cbrtf(const Tables& t, float x) { return cbrtf_from_log2(t, x, fast_log2f(t, fabs_(x))); }

// rcbrtf: e = 2^(-1/3 log2|x|), one Newton step e + e (1 - e^2 |x| e) / 3; x's sign;
// where x + x equals x (0, inf), that with its exponent bits inverted (inf, 0).
SIMT_MUFU_FN float rcbrtf_from_log2(const Tables& t, float x, float log2x) {
  const float ax = fabs_(x);
  const float e = float_of(ex2(t, bits_of(mul(log2x, hex(0xbeaaaaabu)))));  // |x|^(-1/3)
  const float d = fused(mul(e, e), -mul(ax, e), 1.0f);  // 1 - e^3 |x|
  const float r = fused(d, mul(e, hex(0x3eaaaaabu)), e);
  const float s = x < 0.0f ? -r : r;
  const float xx = add(x, x);
  return xx == x ? float_of(bits_of(xx) ^ 0x7f800000u) : s;
}
SIMT_MUFU_FN float rcbrtf(const Tables& t, float x) { return rcbrtf_from_log2(t, x, fast_log2f(t, fabs_(x))); }

// hypotf: |x| and |y| ordered as integers, both scaled by 2^(126 - 2k) (k from the
// larger one's exponent, bits 0xfe000000), sqrt.rn of big^2 + small^2 (FMUL, FFMA),
// scaled back; the larger one where the smaller is 0, inf where it is inf.
SIMT_MUFU_FN float hypotf(float x, float y) {
  const std::int32_t a = std::int32_t(bits_of(x) & 0x7fffffffu), b = std::int32_t(bits_of(y) & 0x7fffffffu);
  const float small = float_of(std::uint32_t(b < a ? b : a)), big = float_of(std::uint32_t(b < a ? a : b));
  const std::uint32_t ebits = bits_of(big) & 0xfe000000u;
  const float down = float_of(0x7e800000u - ebits);
  const float s = mul(small, down), g = mul(big, down);
  const float r = mul(sqrt_rn(fused(g, g, mul(s, s))), float_of(ebits | 0x800000u));
  if (small == hex(0x7f800000u)) return hex(0x7f800000u);
  return small == 0.0f ? big : r;
}

// exp (double): k = rint(x log2 e) with 1.5 * 2^52 (its low word is k), x - k ln 2 with
// ln 2 split in two, a degree-11 polynomial (FFMAs), 2^k added into the exponent
// field; from |x| >= 708.4 (tested on the high word as a float) 0 or x + inf, and
// up to 745.1 2^k in two halves, DMUL.
SIMT_MUFU_FN double exp(double x) {
  const double j = dfma(x, hexd(0x3ff71547652b82feull), hexd(0x4338000000000000ull));
  const std::uint32_t ki = lo_word(j);
  const double k = dadd(j, hexd(0xc338000000000000ull));
  double f = dfma(k, hexd(0xbfe62e42fefa39efull), x);
  f = dfma(k, hexd(0xbc7abc9e3b39803full), f);
  double p = dfma(hexd(0x3e5ade1569ce2bdfull), f, hexd(0x3e928af3fca213eaull));
  p = dfma(p, f, hexd(0x3ec71dee62401315ull));
  p = dfma(p, f, hexd(0x3efa01997c89eb71ull));
  p = dfma(p, f, hexd(0x3f2a01a014761f65ull));
  p = dfma(p, f, hexd(0x3f56c16c1852b7afull));
  p = dfma(p, f, hexd(0x3f81111111122322ull));
  p = dfma(p, f, hexd(0x3fa55555555502a1ull));
  p = dfma(p, f, hexd(0x3fc5555555555511ull));
  p = dfma(p, f, hexd(0x3fe000000000000bull));
  p = dfma(p, f, 1.0);
  p = dfma(p, f, 1.0);  // e^f
  double r = from_words(hi_word(p) + (ki << 20), lo_word(p));
  const float top = fabs_(float_of(hi_word(x)));
  if (!(top < hex(0x4086232bu))) {
    r = x < 0.0 ? 0.0 : dadd(x, hexd(0x7ff0000000000000ull));
    if (top < hex(0x40874800u)) {
      const std::int32_t kk = std::int32_t(ki);
      const std::int32_t half = (kk + std::int32_t(ki >> 31)) >> 1;  // k / 2 toward zero
      const double a = from_words(hi_word(p) + (std::uint32_t(half) << 20), lo_word(p));
      const double b = from_words((std::uint32_t(kk - half) << 20) + 0x3ff00000u, 0u);
      r = dmul(a, b);
    }
  }
  return r;
}

// rcp.approx.ftz.f64 (MUFU.RCP64H): the float MUFU.RCP of the high word's 20 mantissa
// bits, widened, scaled by the exponent, with a zero low word (the probe: all 2^20 high
// words over [1, 2) with low words 0 and 0xffffffff, and 2^24 random bit patterns).
SIMT_MUFU_FN double rcp64(const Tables& t, double d) {
  const std::uint32_t hi = hi_word(d), sign = hi & kSign;
  const int e = int((hi >> 20) & 0x7ffu);
  if ((hi & 0x7fffffffu) > 0x7ff00000u || ((hi & 0x7fffffffu) == 0x7ff00000u && lo_word(d) != 0)) return hexd(0x7fffffffffffffffull);
  if (e == 0) return from_words(sign | 0x7ff00000u, 0u);
  if (e == 0x7ff) return from_words(sign, 0u);
  const double r = double(float_of(t.rcp[(hi & 0xfffffu) << 3]));  // in (1/2, 1]
  const int scaled = int((hi_word(r) >> 20) & 0x7ffu) - (e - 1023);
  if (scaled <= 0) return from_words(sign, 0u);
  return from_words(sign | (std::uint32_t(scaled) << 20) | (hi_word(r) & 0xfffffu), 0u);
}

// log (double): subnormals scaled by 2^54; m in [0.707, 1.414) and e from the bits;
// u = 2 (m - 1) / (m + 1) with rcp.approx.ftz.f64 and one Newton step (1 + e + e^2), a
// degree-8 series in u^2, u's rounding error, e ln 2 with ln 2 split in two; zero,
// negatives, inf and NaN through x inf + inf (-inf for 0).
SIMT_MUFU_FN double log(const Tables& t, double a) {
  std::uint32_t hi = hi_word(a);
  int e = -1023;
  if (!(std::int32_t(hi) > 1048575)) {
    a = dmul(a, hexd(0x4350000000000000ull));  // 2^54
    hi = hi_word(a);
    e = -1077;
  }
  const std::uint32_t lo = lo_word(a);
  if (!(hi - 1u < 2146435071u)) {
    const double r = dfma(a, hexd(0x7ff0000000000000ull), hexd(0x7ff0000000000000ull));
    return float_of(hi_word(a)) == 0.0f ? hexd(0xfff0000000000000ull) : r;
  }
  e += int(hi >> 20);
  std::uint32_t mh = (hi & 0x800fffffu) | 0x3ff00000u;
  if (!(std::int32_t(mh) < 1073127583)) {  // m >= sqrt(2): halved
    mh -= 0x100000u;
    e += 1;
  }
  const double m = from_words(mh, lo);
  const double d = dadd(m, 1.0);
  const double r0 = rcp64(t, d);
  const double e1 = dfma(-d, r0, 1.0);
  const double r = dfma(dfma(e1, e1, e1), r0, r0);  // 1 / (m + 1)
  const double f = dadd(m, -1.0);
  const double u = dadd(dmul(f, r), dmul(f, r));  // 2 (m - 1) / (m + 1)
  const double v = dmul(u, u);
  double p = dfma(hexd(0x3eb1380b3ae80f1eull), v, hexd(0x3ed0ee258b7a8b04ull));
  p = dfma(p, v, hexd(0x3ef3b2669f02676full));
  p = dfma(p, v, hexd(0x3f1745cba9ab0956ull));
  p = dfma(p, v, hexd(0x3f3c71c72d1b5154ull));
  p = dfma(p, v, hexd(0x3f624924923be72dull));
  p = dfma(p, v, hexd(0x3f8999999999a3c4ull));
  p = dfma(p, v, hexd(0x3fb5555555555554ull));
  const double g = dadd(f, -u);
  const double c = dmul(r, dfma(-u, f, dadd(g, g)));  // u's error: (2 (f - u) - u f) / (m + 1)
  const double s = dfma(dmul(v, p), u, c);
  // e as a double: (2^52 + 2^31 + e) - (2^52 + 2^31) from the bits.
  const double ef = dadd(from_words(0x43300000u, std::uint32_t(e) ^ 0x80000000u), -from_words(0x43300000u, 0x80000000u));
  const double h = dfma(ef, hexd(0x3fe62e42fefa39efull), u);
  const double h_err = dadd(dfma(-ef, hexd(0x3fe62e42fefa39efull), h), -u);
  const double s2 = dfma(ef, hexd(0x3c7abc9e3b39803full), dadd(s, -h_err));
  return dadd(h, s2);
}

// tanh (double): below 0.655 an odd polynomial (x^2, eleven DFMAs, x + x p); above,
// 2|x| = k ln 2 + f with k = rint(float(2|x|) log2 e) in single precision, e^f - 1 by a
// polynomial, 2^k from ex2.approx.ftz.f32, d = 1 + 2^k e^f, 1 - 2 / d with
// rcp.approx.ftz.f64 and one Newton step; 1 above 22.0 (high word); x's sign.
SIMT_MUFU_FN double tanh(const Tables& t, double x) {
  const std::uint32_t ahi = hi_word(x) & 0x7fffffffu;
  const double ax = from_words(ahi, lo_word(x));
  if (!(ax >= hexd(0x3fe4f92224dd2f1aull))) {  // also NaN
    const double x2 = dmul(x, x);
    double p = dfma(hexd(0xbef0bc46e2f5e964ull), x2, hexd(0x3f14359f420afc3dull));
    p = dfma(p, x2, hexd(0xbf2df9f0728c5d84ull));
    p = dfma(p, x2, hexd(0x3f4337d1cec4f033ull));
    p = dfma(p, x2, hexd(0xbf57d6e9674335b3ull));
    p = dfma(p, x2, hexd(0x3f6d6d000d7aad3dull));
    p = dfma(p, x2, hexd(0xbf8226e1f3cf1ef5ull));
    p = dfma(p, x2, hexd(0x3f9664f47ec0c8cfull));
    p = dfma(p, x2, hexd(0xbfaba1ba1b80ab40ull));
    p = dfma(p, x2, hexd(0x3fc111111110fa4aull));
    p = dfma(p, x2, hexd(0xbfd5555555555550ull));
    p = dfma(p, x2, 0.0);
    return dfma(p, x, x);
  }
  const double a2 = dadd(ax, ax);
  const float kf = rint_(mul(static_cast<float>(a2), hex(0x3fb8aa3bu)));
  const double k = static_cast<double>(kf);
  const double f = dfma(-k, hexd(0x3fe62e42fefa39efull), a2);
  double p = dfma(hexd(0x3e5ae904a4741b81ull), f, hexd(0x3e928a27f89b6999ull));
  p = dfma(p, f, hexd(0x3ec71de715ff7e07ull));
  p = dfma(p, f, hexd(0x3efa019a6b0ac45aull));
  p = dfma(p, f, hexd(0x3f2a01a017eed94full));
  p = dfma(p, f, hexd(0x3f56c16c17f2a71bull));
  p = dfma(p, f, hexd(0x3f811111111173c4ull));
  p = dfma(p, f, hexd(0x3fa555555555211aull));
  p = dfma(p, f, hexd(0x3fc5555555555540ull));
  p = dfma(p, f, hexd(0x3fe0000000000005ull));
  const double em1 = dfma(dmul(f, p), f, f);  // e^f - 1
  const double two_k = static_cast<double>(float_of(ex2(t, bits_of(kf))));
  const double b = dfma(-em1, two_k, dadd(1.0, -two_k));  // 1 - 2^k e^f
  const double d = dadd(2.0, -b);
  const double r0 = rcp64(t, d);
  const double e1 = dfma(-d, r0, 1.0);
  const double r = dfma(dfma(e1, e1, e1), r0, r0);
  double v = dfma(2.0, -r, 1.0);
  if (ahi > 1077088193u) v = 1.0;
  return double_of((bits_of(v) & 0x7fffffffffffffffull) | (bits_of(x) & 0x8000000000000000ull));
}

}  // namespace simt::mufu
