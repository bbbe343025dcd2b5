// Portable math: expf, logf, tanhf, erff, rsqrtf, __expf and __fdividef written
// with IEEE + - * and fmaf only, so the nvcc build and the simulator build compute
// the same bits (docs/dialect.md, "Floating point"). Kernels spell them simt::expf(x) etc.;
// `simt port` rewrites expf(...) in device code to that (docs/dialect.md).
//
// In the simulator build every operation is an f32 operation, so the FADD/FMUL/FFMA
// the function executes are counted like the kernel's own. The code is branch-free
// (both halves of a piecewise function are computed and one is selected) so that
// the thread-level counts do not depend on whether nvcc predicates a branch.
//
// Coefficients: scripts/fit_portable_math.py. Accuracy (max ulp against the
// correctly rounded result, measured by tests/port/test_portable_math.cpp):
// docs/dialect.md, "Portable math".
#pragma once

#if defined(__CUDACC__) || defined(SIMT_CLANG_FRONTEND)  // plain CUDA types (nvcc, or clang + simtlab's pass)
#define SIMT_PM_FN __host__ __device__ __forceinline__
#else
#include "sim/cuda/math.hpp"
#include "sim/cuda/scalar.hpp"

#include <cmath>
#include <cstring>
#define SIMT_PM_FN SIMT_INLINE
#endif

namespace simt::pm {

// ---- the few primitives that differ between the two builds
#if defined(__CUDACC__) || defined(SIMT_CLANG_FRONTEND)  // plain CUDA types (nvcc, or clang + simtlab's pass)
using real = float;
SIMT_PM_FN unsigned bits(float x) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(x);
#else
  unsigned u;
  memcpy(&u, &x, sizeof u);
  return u;
#endif
}
SIMT_PM_FN float from_bits(unsigned u) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(u);
#else
  float x;
  memcpy(&x, &u, sizeof x);
  return x;
#endif
}
SIMT_PM_FN float fma(float a, float b, float c) { return fmaf(a, b, c); }
SIMT_PM_FN float round_even(float x) { return rintf(x); }  // FRND: no FADD/FMUL
SIMT_PM_FN float clamp(float x, float lo, float hi) { return fminf(fmaxf(x, lo), hi); }
SIMT_PM_FN float abs(float x) { return fabsf(x); }
#else
using real = f32;
SIMT_PM_FN unsigned bits(real x) {
  float v = x;  // locals are free to read: no memory access is recorded
  unsigned u;
  std::memcpy(&u, &v, sizeof u);
  return u;
}
SIMT_PM_FN real from_bits(unsigned u) {
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}
SIMT_PM_FN real fma(real a, real b, real c) { return ::fmaf(a, b, c); }  // one counted FFMA
SIMT_PM_FN real round_even(real x) { return std::nearbyint(float(x)); }
SIMT_PM_FN real clamp(real x, float lo, float hi) { return std::fmin(std::fmax(float(x), lo), hi); }
SIMT_PM_FN real abs(real x) { return std::fabs(float(x)); }
#endif

SIMT_PM_FN real select(bool c, real a, real b) { return c ? a : b; }
SIMT_PM_FN bool finite(real x) { return (bits(x) & 0x7f800000u) != 0x7f800000u; }
SIMT_PM_FN real negate_if(bool c, real x) { return c ? real(-x) : x; }  // sign flip: a modifier, not an FADD

constexpr float kInf = __builtin_huge_valf();
constexpr float kLog2e = 0x1.715476p+0f;
constexpr float kLn2Hi = 0x1.62e430p-1f;  // ln 2 = kLn2Hi + kLn2Lo to ~2^-53
constexpr float kLn2Lo = -0x1.05c610p-29f;
SIMT_PM_FN real quiet_nan() { return from_bits(0x7fffffffu); }  // the GPU's canonical NaN

// 2^k for k in [-126, 127], built from its bits.
SIMT_PM_FN real pow2(int k) { return from_bits(static_cast<unsigned>(k + 127) << 23); }

// x * 2^k for |k| <= 252 with one rounding: the first product is exact.
SIMT_PM_FN real scale(real x, int k) {
  int k1 = k / 2;
  return (x * pow2(k1)) * pow2(k - k1);
}

// exp(x) = 2^k * exp(r), k = rint(x / ln 2), |r| <= ln2 / 2 (Cody-Waite reduction).
SIMT_PM_FN real exp(real x) {
  real xc = clamp(x, -104.0f, 89.0f);  // beyond: 0 or inf anyway; keeps k in range
  real k = round_even(xc * kLog2e);
  real r = fma(k, -kLn2Hi, xc);
  r = fma(k, -kLn2Lo, r);
  real p = 0x1.a0464ap-13f;
  p = fma(p, r, 0x1.6d42aep-10f);
  p = fma(p, r, 0x1.111166p-7f);
  p = fma(p, r, 0x1.5554eap-5f);
  p = fma(p, r, 0x1.555556p-3f);
  p = fma(p, r, 0x1.000000p-1f);
  real q = fma(r * r, p, r);  // exp(r) - 1
  real y = scale(q + 1.0f, static_cast<int>(float(k)));
  return select(x != x, x, y);
}

// log(x) = e ln2 + log1p(f), x = 2^e (1 + f), 1 + f in [sqrt(1/2), sqrt(2)).
SIMT_PM_FN real log(real x) {
  bool subnormal = x < 0x1p-126f;
  real xs = select(subnormal, x * 0x1p23f, x);
  unsigned b = bits(xs);
  int e = static_cast<int>((b >> 23) & 0xffu) - 127 - (subnormal ? 23 : 0);
  unsigned mb = (b & 0x007fffffu) | 0x3f800000u;
  if (mb > 0x3fb504f3u) {  // mantissa above sqrt(2): halve it (integer work only)
    mb -= 0x00800000u;
    e += 1;
  }
  real f = from_bits(mb) - 1.0f;
  real p = 0x1.1917d2p-4f;
  p = fma(p, f, -0x1.d3dc62p-4f);
  p = fma(p, f, 0x1.df3556p-4f);
  p = fma(p, f, -0x1.fd545ep-4f);
  p = fma(p, f, 0x1.23cfaep-3f);
  p = fma(p, f, -0x1.555916p-3f);
  p = fma(p, f, 0x1.999d5ep-3f);
  p = fma(p, f, -0x1.000002p-2f);
  p = fma(p, f, 0x1.555554p-2f);
  real t = fma(f, p, -0.5f);
  real y = fma(f * f, t, f);  // log1p(f) = f - f^2/2 + f^3 p
  real ef = static_cast<float>(e);
  y = fma(ef, kLn2Lo, y);
  y = fma(ef, kLn2Hi, y);
  y = select(x == kInf, x, y);
  y = select(x == 0.0f, -kInf, y);
  return select(x < 0.0f || x != x, quiet_nan(), y);
}

// 1/b by Newton's iteration from a bit-level first guess (no division, no MUFU).
SIMT_PM_FN real reciprocal(real b) {
  real ab = abs(b);
  real s = select(ab > 0x1p125f, 0x1p-4f, select(ab < 0x1p-125f, 0x1p24f, 1.0f));  // keep b*s normal
  real bs = ab * s;
  real r = from_bits(0x7ef311c3u - bits(bs));
  for (int i = 0; i < 4; ++i) {
    real e = fma(-bs, r, 1.0f);
    r = fma(r, e, r);
  }
  r = negate_if(b < 0.0f, r * s);
  r = select(ab == kInf, negate_if(b < 0.0f, 0.0f), r);
  r = select(b == 0.0f, from_bits(bits(b) | 0x7f800000u), r);  // 1/(+-0) = +-inf
  return select(b != b, b, r);
}

// a / b as a * (1/b) plus one correction step; more accurate than CUDA's own
// __fdividef (see docs/dialect.md) and identical on both sides. Like CUDA's, it
// is meant for 2^-126 <= |b| <= 2^126: for smaller |b|, 1/b overflows to inf.
SIMT_PM_FN real divide(real a, real b) {
  real r = reciprocal(b);
  real q = a * r;
  real rem = fma(-b, q, a);
  real q2 = fma(rem, r, q);
  return select(finite(q2), q2, q);
}

// 1/sqrt(x): bit-level guess, three Newton steps, one exact-residual correction.
// x is first scaled by an even power of two into a range where y^2 stays normal.
SIMT_PM_FN real rsqrt(real x) {
  bool subnormal = x < 0x1p-126f, huge = x > 0x1p64f;
  real xs = x * select(subnormal, 0x1p24f, select(huge, 0x1p-64f, 1.0f));
  real y = from_bits(0x5f3759dfu - (bits(xs) >> 1));
  real h = xs * 0.5f;
  for (int i = 0; i < 3; ++i) {
    real t = fma(-h * y, y, 1.5f);
    y = y * t;
  }
  // Final correction on the residual 1 - x y^2, with y^2 split exactly into
  // yy + yy_err so that the residual is not lost to the rounding of y^2.
  real yy = y * y;
  real yy_err = fma(y, y, -yy);
  real e = fma(-xs, yy, 1.0f);
  e = fma(-xs, yy_err, e);
  y = fma(y * 0.5f, e, y);
  y = y * select(subnormal, 0x1p12f, select(huge, 0x1p-32f, 1.0f));
  y = select(x == kInf, 0.0f, y);
  y = select(x == 0.0f, from_bits(bits(x) | 0x7f800000u), y);  // 1/sqrt(+-0) = +-inf
  return select(x < 0.0f || x != x, select(x != x, x, quiet_nan()), y);
}

// tanh: odd polynomial near 0, 1 - 2 / (exp(2|x|) + 1) elsewhere.
SIMT_PM_FN real tanh(real x) {
  real ax = abs(x);
  real x2 = x * x;
  real p = -0x1.f5df96p-11f;
  p = fma(p, x2, 0x1.bd31b4p-9f);
  p = fma(p, x2, -0x1.211cf2p-7f);
  p = fma(p, x2, 0x1.663ccep-6f);
  p = fma(p, x2, -0x1.ba1b20p-5f);
  p = fma(p, x2, 0x1.111110p-3f);
  p = fma(p, x2, -0x1.555556p-2f);
  real small = fma(x * x2, p, x);
  real e = exp(ax + ax);
  real large = negate_if(x < 0.0f, fma(-2.0f, reciprocal(e + 1.0f), 1.0f));
  return select(ax < 0.55f, small, large);
}

// erf: x + x P(x^2) for |x| < 1; 1 - exp(Q(|x| - 2.5)) up to 4, where erf is 1 in float.
SIMT_PM_FN real erf(real x) {
  real ax = abs(x);
  real x2 = x * x;
  real p = 0x1.1cd26ep-20f;
  p = fma(p, x2, -0x1.d3079ap-17f);
  p = fma(p, x2, 0x1.f5907ep-14f);
  p = fma(p, x2, -0x1.bfe37cp-11f);
  p = fma(p, x2, 0x1.5658b0p-8f);
  p = fma(p, x2, -0x1.b82cbep-6f);
  p = fma(p, x2, 0x1.ce2f20p-4f);
  p = fma(p, x2, -0x1.812746p-2f);
  p = fma(p, x2, 0x1.06eba8p-3f);
  real small = fma(x, p, x);  // x + x P(x^2): the leading x is exact
  real t = clamp(ax, 1.0f, 4.0f) - 2.5f;
  real q = 0x1.3017acp-24f;
  q = fma(q, t, 0x1.4ad2b4p-23f);
  q = fma(q, t, -0x1.a1babcp-25f);
  q = fma(q, t, 0x1.9e9350p-20f);
  q = fma(q, t, -0x1.b9a69ep-17f);
  q = fma(q, t, 0x1.427d4ep-14f);
  q = fma(q, t, -0x1.b93942p-12f);
  q = fma(q, t, 0x1.1bd9dep-9f);
  q = fma(q, t, -0x1.63cbf2p-7f);
  q = fma(q, t, -0x1.e3460ap-1f);
  q = fma(q, t, -0x1.569252p+2f);
  q = fma(q, t, -0x1.f3a2dcp+2f);
  real large = negate_if(x < 0.0f, 1.0f - exp(q));
  return select(x != x, x, select(ax < 1.0f, small, large));
}

}  // namespace simt::pm

namespace simt {
#if defined(__CUDACC__) || defined(SIMT_CLANG_FRONTEND)  // plain CUDA types (nvcc, or clang + simtlab's pass)
SIMT_PM_FN float expf(float x) { return pm::exp(x); }
SIMT_PM_FN float __expf(float x) { return pm::exp(x); }
SIMT_PM_FN float logf(float x) { return pm::log(x); }
SIMT_PM_FN float tanhf(float x) { return pm::tanh(x); }
SIMT_PM_FN float erff(float x) { return pm::erf(x); }
SIMT_PM_FN float rsqrtf(float x) { return pm::rsqrt(x); }
SIMT_PM_FN float __fdividef(float a, float b) { return pm::divide(a, b); }
#else
// An f32 argument is read once (a load if it lives in device memory); a float
// or double argument converts as in CUDA's float overloads.
SIMT_PM_FN f32 expf(f32 x) { return pm::exp(x); }
SIMT_PM_FN f32 __expf(f32 x) { return pm::exp(x); }
SIMT_PM_FN f32 logf(f32 x) { return pm::log(x); }
SIMT_PM_FN f32 tanhf(f32 x) { return pm::tanh(x); }
SIMT_PM_FN f32 erff(f32 x) { return pm::erf(x); }
SIMT_PM_FN f32 rsqrtf(f32 x) { return pm::rsqrt(x); }
SIMT_PM_FN f32 __fdividef(f32 a, f32 b) { return pm::divide(a, b); }
#endif
}  // namespace simt
