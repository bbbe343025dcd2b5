// The H200's tensor-core dot product, bit for bit: d = c + sum_k a_k * b_k as one
// HMMA computes it (docs/validation/h200-tensor-cores.md). It is not IEEE fp32
// addition: the products are exact, and each step adds `group` of them and the
// running sum by aligning every term to the largest exponent among them, keeping
// `window` bits below that exponent's leading bit and cutting the rest off (toward
// zero), then rounding the exact sum of what is left to fp32. Fasi, Higham, Mikaitis
// and Pranesh ("Numerical behavior of NVIDIA tensor cores", PeerJ CS 2021) describe
// the same scheme on V100, T4 and A100 with other group sizes and window widths;
// tests/cuda/wmma_fit.cpp measures the H200's from recorded tiles.
#pragma once
#include "sim/math/narrow_float.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace simt::math::tensor {

// The candidates tests/cuda/wmma_fit.cpp searched; the H200's are below.
struct Accumulation {
  int group = 16;            // products added in one step (with the running sum)
  int window = 25;           // bits kept below the largest term's exponent
  bool floor_terms = false;  // cut each term toward -inf (two's complement) rather than toward zero
  bool nearest = false;      // the step's sum rounded to nearest even rather than toward zero
};
// Measured on the H200 (every recorded tile bit for bit): fp16 and bf16 inputs, one
// HMMA.16816 adds its 16 products and c in one step; tf32 inputs, HMMA.1684 adds 4.
// Both keep 25 bits below the largest exponent, cut toward zero, round toward zero.
inline constexpr Accumulation kH200Half{16, 25, false, false};
inline constexpr Accumulation kH200Tf32{4, 25, false, false};

inline std::uint32_t bits_of(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
inline float float_of(std::uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
inline constexpr std::uint32_t kCanonicalNan = 0x7fffffffu;

// An exact value (a double holding it) rounded to fp32 toward zero or to nearest even.
// At 2^128 and above it is an infinity even toward zero (measured: a sum past fp32's
// range is inf on the H200, not the largest float).
inline float round_f32(double exact, bool nearest) {
  if (std::fabs(exact) >= 0x1p128) return exact > 0 ? INFINITY : -INFINITY;
  float f = static_cast<float>(exact);  // nearest even: exact is one rounding away
  if (!nearest && std::fabs(static_cast<double>(f)) > std::fabs(exact)) f = std::nextafter(f, 0.0f);
  return f;
}

// The exponent the adder aligns on: a normal number's, or the format's smallest for
// a subnormal one (its significand is 0.xxx at that exponent).
inline int format_exponent(double v, int emin) { return std::max(std::ilogb(v), emin); }

// One step: acc + a[0]*b[0] + ... + a[n-1]*b[n-1]. A product is exact (a double holds
// it) and is aligned on the sum of its factors' exponents, not on its own: its
// significand lies in [1, 4), so a product of two significands >= sqrt(2) keeps one
// bit above the window's top (measured: docs/validation/h200-tensor-cores.md).
// Infinities and NaNs follow IEEE (inf - inf, inf * 0 give NaN); a NaN comes out as
// the canonical 0x7fffffff; a zero sum is +0. `emin`: the inputs' format's smallest normal exponent.
// Returns the step's exact sum (what is kept of each term, added exactly: a double
// holds it), for the caller to round: to fp32 by round_f32, to fp16 directly (an
// fp16 accumulator is rounded once, to nearest, from this sum: measured).
inline double step_exact(double acc, const double* a, const double* b, int n, int emin, const Accumulation& m) {
  double p[32];
  double special = acc;
  bool finite = std::isfinite(acc);
  for (int i = 0; i < n; ++i) p[i] = a[i] * b[i], finite = finite && std::isfinite(p[i]), special += p[i];
  if (!finite) return special;  // NaN, or an infinity
  constexpr int kNone = std::numeric_limits<int>::min();
  int emax = acc != 0 ? format_exponent(acc, -126) : kNone;  // an fp16 accumulator widened: exact
  for (int i = 0; i < n; ++i)
    if (p[i] != 0) emax = std::max(emax, format_exponent(a[i], emin) + format_exponent(b[i], emin));
  if (emax == kNone) return 0.0;  // every term is zero: +0 even when all are -0 (measured: the H200 gives no -0)
  const int unit = emax - m.window;  // the weight of the last bit kept
  auto cut = [&](double v) {
    const double scaled = std::ldexp(v, -unit);  // exact: a power-of-two scaling
    return static_cast<std::int64_t>(m.floor_terms ? std::floor(scaled) : std::trunc(scaled));
  };
  std::int64_t sum = cut(acc);
  for (int i = 0; i < n; ++i) sum += cut(p[i]);
  return std::ldexp(static_cast<double>(sum), unit);  // exact; a sum of 0 is +0
}

inline float round_step(double exact, const Accumulation& m) {
  return std::isnan(exact) ? float_of(kCanonicalNan) : round_f32(exact, m.nearest);
}

// c + sum of the k products, `group` at a time in k's order (k <= 32), each step
// but the last rounded to fp32; the last step's exact sum is returned unrounded.
inline double dot_exact(double c, const double* a, const double* b, int k, int emin, const Accumulation& m) {
  double acc = c;
  for (int i = 0; i < k; i += m.group) {
    if (i) acc = round_step(acc, m);
    acc = step_exact(acc, a + i, b + i, std::min(m.group, k - i), emin, m);
  }
  return acc;
}
inline float dot_f32(float c, const double* a, const double* b, int k, int emin, const Accumulation& m) {
  return round_step(dot_exact(c, a, b, k, emin, m), m);
}

}  // namespace simt::math::tensor
