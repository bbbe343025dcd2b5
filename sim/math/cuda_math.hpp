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

// expf: 2^k from an FFMA.RM into the float's exponent field, MUFU.EX2 of the
// reduced argument (two FFMAs with log2(e) split in two).
SIMT_MUFU_FN float expf(const Tables& t, float a) {
  const float s = fused_saturated(a, hex(0x3bbb989du), 0.5f);  // a log2(e) / 252 + 1/2
  const float j = fused_rm_252(s);
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

// log2f: a degree-9 polynomial for log2(1 + f) / f - log2 e ... added to e.
SIMT_MUFU_FN float log2f(float a) {
  const bool subnormal = a < hex(0x00800000u);
  const float a1 = subnormal ? mul(a, 8388608.0f) : a;
  const LogReduced lr = log_reduce(a1, 0x3f3504f3u, subnormal ? -23.0f : 0.0f);
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

// log10f: logf's sequence (reduced around 2/3), times log10(e).
SIMT_MUFU_FN float log10f(float a) {
  const bool subnormal = a < hex(0x00800000u);
  const float a1 = subnormal ? mul(a, 8388608.0f) : a;
  const LogReduced lr = log_reduce(a1, 0x3f2aaaabu, subnormal ? -23.0f : 0.0f);
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
  if (!(bits_of(a1) < 0x7f800000u)) r = fused(a1, hex(0x7f800000u), hex(0x7f800000u));
  const float v = mul(r, hex(0x3ede5bd9u));
  return a1 == 0.0f ? hex(0xff800000u) : v;
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
SIMT_MUFU_FN float exp10f(const Tables& t, float a) {
  const float s = fused_saturated(a, hex(0x3c57fa62u), 0.5f);  // a log2(10) / 252 + 1/2
  const float j = fused_rm_252(s);
  const float k = add(j, -12583039.0f);
  float f = fused(a, hex(0x40549a78u), -k);
  f = fused(a, hex(0x33979a37u), f);
  const float scale2k = float_of(bits_of(j) << 23);
  return mul(float_of(ex2(t, bits_of(f))), scale2k);
}

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

}  // namespace simt::mufu
