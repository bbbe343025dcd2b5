// The conversions of CUDA's 8-bit floating-point formats (<cuda_fp8.h>), on bit
// patterns, written from the format definitions (OCP 8-bit Floating Point
// Specification, v1.0, 2023) and CUDA 13's documented choices:
//   E4M3: bias 7, 3 mantissa bits, no infinities; S.1111.111 is NaN (0x7F, 0xFF);
//         largest finite 0x7E = 448, smallest subnormal 2^-9.
//   E5M2: bias 15, 2 mantissa bits, IEEE-like: 0x7C is +inf, 0x7D..0x7F NaN;
//         largest finite 0x7B = 57344, smallest subnormal 2^-16.
// Narrowing rounds to nearest, ties to even, once, from the exact value (a float, a
// half and a bfloat16 are all exact in double). Out of range: with saturation
// (__NV_SATFINITE) the largest finite value of the sign; without (__NV_NOSAT)
// E4M3 gives NaN and E5M2 infinity. An infinite input overflows the same way. A
// value at most half the smallest subnormal becomes a zero of its sign.
// NaN: a double keeps its sign; E5M2 keeps the top two payload bits of the double
// with the quiet bit set (0x7E | payload); E4M3 gives 0x7F with the sign. A float,
// half or bfloat16 NaN is first made the canonical float NaN 0x7FFFFFFF (sign
// dropped): E4M3 0x7F, E5M2 0x7F.
// Widening to half is exact (every E4M3 and E5M2 value is an fp16 value); a NaN
// becomes fp16's canonical 0x7FFF.
// These are the answers of CUDA 13's host code, compared for every float, half and
// bfloat16 input (tests/cuda/fp8_conversions.cu, docs/validation/fp8-conversions.md).
#pragma once
#include <cstdint>
#include <cstring>

namespace simt::cuda::fp8 {

enum class Kind { E4M3, E5M2 };

struct Layout {
  int man_bits, bias;
  std::uint8_t max_finite;  // without the sign
};
constexpr Layout layout(Kind k) { return k == Kind::E4M3 ? Layout{3, 7, 0x7E} : Layout{2, 15, 0x7B}; }

constexpr bool is_nan(std::uint8_t v, Kind k) {
  return k == Kind::E4M3 ? (v & 0x7F) == 0x7F : (v & 0x7F) > 0x7C;
}

// x rounded to the format (see the header comment).
inline std::uint8_t from_double(double x, Kind k, bool satfinite) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, 8);
  const auto sign = std::uint8_t((bits >> 63) << 7);
  const std::uint64_t a = bits & 0x7FFFFFFFFFFFFFFFull;
  const Layout f = layout(k);
  const std::uint8_t overflow =
      std::uint8_t(sign | (satfinite ? f.max_finite : k == Kind::E4M3 ? 0x7F : 0x7C));
  if (a > 0x7FF0000000000000ull)  // NaN
    return std::uint8_t(sign | (k == Kind::E4M3 ? 0x7F : 0x7E | ((bits >> 50) & 3)));
  if (a == 0x7FF0000000000000ull) return overflow;  // infinity
  const int exp_field = int(a >> 52);
  if (exp_field == 0) return sign;  // double subnormals are far below fp8's half-ulp
  const int e = exp_field - 1023;   // a = sig * 2^(e - 52), sig in [2^52, 2^53)
  const std::uint64_t sig = (a & 0x000FFFFFFFFFFFFFull) | (1ull << 52);
  const int emin = 1 - f.bias;
  const int te = e > emin ? e : emin;              // the exponent of the result's quantum
  const int drop = 52 - f.man_bits + (te - e);     // bits of sig below the quantum 2^(te - man_bits)
  if (drop >= 54) return sign;                     // below half the smallest subnormal
  std::uint64_t n = sig >> drop;
  const std::uint64_t rest = sig & ((1ull << drop) - 1), half = 1ull << (drop - 1);
  if (rest > half || (rest == half && (n & 1))) ++n;
  // n * 2^(te - man_bits): n < 2^man_bits is a subnormal (exponent field 0); n may
  // have carried to 2^(man_bits + 1), the next binade, which the encoding absorbs.
  const unsigned implicit = 1u << f.man_bits;
  unsigned code;
  if (n < implicit) code = unsigned(n);
  else code = (unsigned(te + f.bias) << f.man_bits) + unsigned(n - implicit);  // a carry bumps the exponent
  if (code > f.max_finite) return overflow;
  return std::uint8_t(sign | code);
}

// A float's conversion: its NaN made canonical first.
inline std::uint8_t from_float(float x, Kind k, bool satfinite) {
  std::uint32_t b;
  std::memcpy(&b, &x, 4);
  if ((b & 0x7FFFFFFFu) > 0x7F800000u) return 0x7F;  // both formats: 0x7FFFFFFF's conversion
  return from_double(double(x), k, satfinite);
}

// Exact widening to fp16 bits; NaN gives 0x7FFF.
constexpr std::uint16_t to_half(std::uint8_t v, Kind k) {
  if (is_nan(v, k)) return 0x7FFF;
  if (k == Kind::E5M2) return std::uint16_t(v << 8);  // E5M2 is the top byte of an fp16
  const auto sign = std::uint16_t((v & 0x80) << 8);
  const unsigned e = (v >> 3) & 0xF, m = v & 7;
  if (e != 0) return std::uint16_t(sign | ((e + 8) << 10) | (m << 7));  // rebias 7 -> 15
  if (m == 0) return sign;
  // m * 2^-9, m in 1..7: its leading bit p gives 2^(p - 9) * 1.f, an fp16 normal.
  const unsigned p = m >= 4 ? 2 : m >= 2 ? 1 : 0;
  return std::uint16_t(sign | ((p + 6) << 10) | ((m - (1u << p)) << (10 - p)));
}

// The exact value (NaN as a quiet double NaN).
inline double to_double(std::uint8_t v, Kind k) {
  const std::uint16_t h = to_half(v, k);
  const int e = (h >> 10) & 0x1F, m = h & 0x3FF;
  double r;
  if (e == 0x1F) r = m ? __builtin_nan("") : __builtin_inf();
  else if (e == 0) r = double(m) * 0x1p-24;
  else r = double(m | 0x400) * double(1ull << e) * 0x1p-25;  // (1024 + m) * 2^(e - 25)
  return (h & 0x8000) ? -r : r;
}

}  // namespace simt::cuda::fp8
