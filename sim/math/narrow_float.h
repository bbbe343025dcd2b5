// The arithmetic of CUDA's 16-bit floating-point formats (fp16 and bf16), on their
// bit patterns, rounded exactly as sm_90 rounds (docs/frontend.md, "fp16 and bf16").
// Values are widened to double, which holds every fp16 and bf16 exactly, operated
// on there and rounded once to the 16-bit format by from_double().
//
// Why one rounding through double is exact (a double rounding x -> double -> 16 bits
// differs from the correct x -> 16 bits only when the double lands exactly on a
// 16-bit midpoint):
// - add, sub, mul, div, sqrt: a double has p' = 53 >= 2p + 2 bits for p = 11 (fp16)
//   and p = 8 (bf16); by Figueroa's theorem ("When is double rounding innocuous?",
//   1995) the double-rounded result then equals the correctly rounded one.
// - fma: not covered by that theorem, and not innocuous: for bf16, 7 * 39 = 273 is a
//   midpoint of bf16 (between 272 and 274), and 273 + 2^-133 rounds to 273 in double,
//   then to the even 272, where the exact value rounds up to 274. So fma() computes
//   a*b exactly (22 bits at most), adds c in double, recovers the rounding error with
//   Knuth's TwoSum (exact barring overflow, impossible here) and rounds to odd: an
//   inexact sum gets the neighbour with an odd last bit. Rounding to odd with 53 >=
//   p + 2 bits and then to nearest is the correct rounding (Boldo & Melquiond 2008).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

namespace simt::cuda::narrow {

struct Format {
  int exp_bits;
  int man_bits;
  std::uint16_t nan;  // the NaN sm_90 produces (canonical, sign clear)
};
inline constexpr Format kHalf{5, 10, 0x7fff};
inline constexpr Format kBf16{8, 7, 0x7fff};

enum class Round { Nearest, Zero, Down, Up };

constexpr int bias(Format f) { return (1 << (f.exp_bits - 1)) - 1; }
constexpr std::uint16_t exp_mask(Format f) { return std::uint16_t(((1u << f.exp_bits) - 1) << f.man_bits); }
constexpr std::uint16_t man_mask(Format f) { return std::uint16_t((1u << f.man_bits) - 1); }
constexpr bool is_nan(std::uint16_t b, Format f) { return (b & exp_mask(f)) == exp_mask(f) && (b & man_mask(f)); }
constexpr bool is_inf(std::uint16_t b, Format f) { return (b & 0x7fff) == exp_mask(f); }

// Exact: every 16-bit value is a double.
inline double to_double(std::uint16_t b, Format f) {
  const bool neg = b & 0x8000;
  const int e = (b & exp_mask(f)) >> f.man_bits;
  const int m = b & man_mask(f);
  double v;
  if (e == (1 << f.exp_bits) - 1) v = m ? NAN : INFINITY;
  else if (e == 0) v = std::ldexp(double(m), 1 - bias(f) - f.man_bits);
  else v = std::ldexp(double(m | (1 << f.man_bits)), e - bias(f) - f.man_bits);
  return neg ? -v : v;
}

// Rounds x to the format under the given mode; NaN gives the format's NaN.
inline std::uint16_t from_double(double x, Format f, Round r = Round::Nearest) {
  if (std::isnan(x)) return f.nan;
  const std::uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  const double a = std::fabs(x);
  const std::uint16_t inf = sign | exp_mask(f);
  const std::uint16_t max_finite = sign | std::uint16_t(exp_mask(f) - (1u << f.man_bits)) | man_mask(f);
  if (std::isinf(a)) return inf;
  if (a == 0) return sign;
  const int emin = 1 - bias(f);
  int e2;
  std::frexp(a, &e2);  // a = m * 2^e2, m in [0.5, 1)
  const int e = e2 - 1 > emin ? e2 - 1 : emin;  // the exponent of a's binade, or the subnormals'
  const double scaled = std::ldexp(a, f.man_bits - e);  // exact: a power-of-two scaling
  double n = std::floor(scaled);
  const double frac = scaled - n;  // exact
  bool up = false;
  switch (r) {
    case Round::Nearest: up = frac > 0.5 || (frac == 0.5 && std::fmod(n, 2.0) == 1.0); break;
    case Round::Zero: up = false; break;
    case Round::Down: up = sign && frac > 0; break;
    case Round::Up: up = !sign && frac > 0; break;
  }
  if (up) n += 1;
  auto mant = std::uint32_t(n);
  int exp_field;
  if (mant < (1u << f.man_bits)) exp_field = 0;  // subnormal (or zero)
  else {
    exp_field = e + bias(f);
    if (mant == (2u << f.man_bits)) {  // rounding carried into the next binade
      mant >>= 1;
      ++exp_field;
    }
    mant -= 1u << f.man_bits;
  }
  if (exp_field >= (1 << f.exp_bits) - 1) {  // overflow: IEEE's choice per mode
    const bool to_inf = r == Round::Nearest || (r == Round::Up && !sign) || (r == Round::Down && sign);
    return to_inf ? inf : max_finite;
  }
  return std::uint16_t(sign | (exp_field << f.man_bits) | mant);
}

inline std::uint16_t from_float(float x, Format f, Round r = Round::Nearest) { return from_double(double(x), f, r); }

// A double's conversion (F2F.F16.F64 on sm_90) keeps a NaN's sign and the top bits of
// its payload, quieted; a float's (F2FP) gives the canonical NaN (from_double).
inline std::uint16_t from_double_keep_nan(double x, Format f, Round r = Round::Nearest) {
  if (!std::isnan(x)) return from_double(x, f, r);
  std::uint64_t bits;
  std::memcpy(&bits, &x, 8);
  const auto payload = std::uint16_t(bits >> (52 - f.man_bits) & man_mask(f));
  const auto quiet = std::uint16_t(1u << (f.man_bits - 1));
  return std::uint16_t((bits >> 63 ? 0x8000 : 0) | exp_mask(f) | quiet | payload);
}

// a*b + c rounded once (see the header comment for the proof).
inline std::uint16_t fma(std::uint16_t a, std::uint16_t b, std::uint16_t c, Format f) {
  const double p = to_double(a, f) * to_double(b, f);  // exact: at most 2 x 11 bits
  const double z = to_double(c, f);
  double s = p + z;
  if (std::isfinite(s)) {
    const double bb = s - p;  // TwoSum: s + err == p + z exactly
    const double err = (p - (s - bb)) + (z - bb);
    std::uint64_t bits;
    std::memcpy(&bits, &s, 8);
    if (err != 0 && (bits & 1) == 0) s = std::nextafter(s, err > 0 ? INFINITY : -INFINITY);
  }
  return from_double(s, f);
}

// Comparisons on values (NaN unordered, -0 == +0), as the GPU's HSETP2.
inline bool less(std::uint16_t a, std::uint16_t b, Format f) { return to_double(a, f) < to_double(b, f); }
inline bool equal(std::uint16_t a, std::uint16_t b, Format f) { return to_double(a, f) == to_double(b, f); }
inline bool unordered(std::uint16_t a, std::uint16_t b, Format f) { return is_nan(a, f) || is_nan(b, f); }

}  // namespace simt::cuda::narrow
