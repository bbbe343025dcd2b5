// The H200's MUFU.EX2, MUFU.RCP and MUFU.RSQ (PTX ex2/rcp/rsqrt .approx.ftz.f32),
// bit for bit, from tables measured on the GPU, and CUDA 13's math functions that
// are built on them (expf, __expf, exp2f, rsqrtf, tanhf, __fdividef) plus logf,
// step for step as nvcc 13 emits them for sm_90.
//
// What the measurements showed (docs/validation/h200-mufu.md; tests/cuda/mufu_probe.cu):
// - RCP depends only on the mantissa: rcp(m * 2^e) = rcp(m) * 2^-e, sign symmetric,
//   for every normal input (2^31 checked). One table of 2^23 results over [1, 2).
// - RSQ depends on the mantissa and the exponent's parity: one table over [1, 4).
// - EX2 of x >= 0 is ex2(f) * 2^n where n.f is x truncated to 24 fraction bits; of
//   x < 0 it is ex2(-f) * 2^-n with n.f = |x| truncated the same way (negative
//   arguments are not 2^(x+1)/2). Two tables of 2^24 results over [0, 1) and (-1, 0].
// - LG2 of m * 2^e is a fixed-point sum S = e + L(m) with 36 fraction bits, rounded
//   toward zero to a float; a negative S is first complemented bit by bit (its
//   magnitude is one unit of 2^-36 short). The results for e = 0 and e = -1 are
//   tables over [1, 2) and [0.5, 1); every other binade follows from the first.
// - SIN and COS (after ptxas's FMUL.RZ by 1/2pi) take |t| in revolutions truncated
//   to 25 fraction bits; the quadrant picks sin or cos of the remainder from two
//   quarter-period tables and the sign (sin(0.25 + r) is the cos table's r, not the
//   sin table's mirror image).
// Subnormal inputs and results flush to zero with their sign, NaN gives 0x7fffffff.
//
// Written for the host and for nvcc, so that tests/cuda/mufu_probe.cu can check the
// model against the hardware over every 32-bit input.
#pragma once
#include <cstdint>

#if defined(__CUDACC__)
#define SIMT_MUFU_FN __host__ __device__ inline
#else
#define SIMT_MUFU_FN inline
#endif

namespace simt::mufu {

// The smooth functions that four of the tables follow to within -2..+1 in the last
// bit: the float nearest to the exact value, computed in double (host only).
enum class Smooth : std::uint8_t { None, Ex2Pos, Ex2Neg, Rcp, Rsq };

#if !defined(__CUDA_ARCH__)
inline std::uint32_t smooth_bits(Smooth s, std::uint32_t k) {
  double v = 0;
  switch (s) {
    case Smooth::Ex2Pos: v = __builtin_exp2(double(k) * 0x1p-24); break;
    case Smooth::Ex2Neg: v = __builtin_exp2(-double(k) * 0x1p-24); break;
    case Smooth::Rcp: v = 1.0 / (1.0 + double(k) * 0x1p-23); break;
    case Smooth::Rsq: {
      union { std::uint32_t u; float f; } x{0x3f800000u + k};
      v = 1.0 / __builtin_sqrt(double(x.f));
      break;
    }
    case Smooth::None: break;
  }
  union { float f; std::uint32_t u; } r{float(v)};
  return r.u;
}
#endif

// One measured table. On the GPU (the probe) and for tables with no smooth function,
// every value; on the host, EX2, RCP and RSQ are kept as 2-bit corrections to their
// smooth function: 4 MB instead of 64 MB per 2^24 values, so that a kernel calling
// expf on scattered arguments hits the cache instead of DRAM (sim/math/mufu_tables.cpp
// falls back to the full table where a correction does not fit).
struct Table {
  const std::uint32_t* full = nullptr;
  const std::uint8_t* fix = nullptr;  // value = smooth_bits(smooth, k) + fix_k - 2
  Smooth smooth = Smooth::None;

  Table() = default;
  SIMT_MUFU_FN Table(const std::uint32_t* values) : full(values) {}
  Table(const std::uint8_t* fixes, Smooth s) : fix(fixes), smooth(s) {}

  SIMT_MUFU_FN std::uint32_t operator[](std::uint32_t k) const {
#if defined(__CUDA_ARCH__)
    return full[k];
#else
    if (full) return full[k];
    return smooth_bits(smooth, k) + ((fix[k >> 2] >> ((k & 3u) * 2)) & 3u) - 2u;
#endif
  }
};

struct Tables {
  Table ex2_pos;      // [k] = ex2(k * 2^-24), k < 2^24
  Table ex2_neg;      // [k] = ex2(-k * 2^-24), k < 2^24
  Table rcp;          // [k] = rcp(1 + k * 2^-23), k < 2^23
  Table rsq;          // [k] = rsqrt(float with bits 0x3f800000 + k), k < 2^24: [1, 4)
  Table lg2_one;      // [k] = lg2(1 + k * 2^-23), k < 2^23
  Table lg2_half;     // [k] = lg2(0.5 + k * 2^-24), k < 2^23
  Table sin_quarter;  // [k] = MUFU.SIN of k * 2^-25 revolutions, k <= 2^23
  Table cos_quarter;  // [k] = MUFU.COS of the same
};

constexpr std::uint32_t kNaN = 0x7fffffffu;  // the GPU's canonical NaN
constexpr std::uint32_t kSign = 0x80000000u, kInf = 0x7f800000u;

SIMT_MUFU_FN bool is_nan(std::uint32_t b) { return (b & 0x7fffffffu) > kInf; }
SIMT_MUFU_FN int biased_exponent(std::uint32_t b) { return int((b >> 23) & 0xffu); }

// t * 2^k for a normal t, flushing a subnormal result to zero and overflowing to inf.
SIMT_MUFU_FN std::uint32_t scale(std::uint32_t t, int k) {
  const int e = biased_exponent(t) + k;
  if (e <= 0) return t & kSign;
  if (e >= 255) return (t & kSign) | kInf;
  return (t & 0x807fffffu) | (std::uint32_t(e) << 23);
}

SIMT_MUFU_FN std::uint32_t rcp(const Tables& t, std::uint32_t x) {
  if (is_nan(x)) return kNaN;
  const std::uint32_t sign = x & kSign;
  const int e = biased_exponent(x);
  if (e == 0) return sign | kInf;    // +-0 and subnormals (flushed)
  if (e == 255) return sign;         // +-inf
  return sign | scale(t.rcp[x & 0x7fffffu], 127 - e);
}

SIMT_MUFU_FN std::uint32_t rsq(const Tables& t, std::uint32_t x) {
  if (is_nan(x)) return kNaN;
  const int e = biased_exponent(x);
  if (e == 0) return (x & kSign) | kInf;  // +-0 and subnormals: +-inf
  if (x & kSign) return kNaN;
  if (e == 255) return 0;
  const int unbiased = e - 127, odd = unbiased & 1;
  return scale(t.rsq[(std::uint32_t(odd) << 23) | (x & 0x7fffffu)], -((unbiased - odd) / 2));
}

SIMT_MUFU_FN std::uint32_t ex2(const Tables& t, std::uint32_t x) {
  if (is_nan(x)) return kNaN;
  const bool negative = x & kSign;
  const int e = biased_exponent(x);
  if (e == 255) return negative ? 0u : kInf;
  if (e == 0) return 0x3f800000u;  // +-0 and subnormals: 1
  if (e >= 127 + 7) return negative ? 0u : kInf;  // |x| >= 128
  // |x| * 2^24 truncated: the mantissa with its hidden bit, shifted by e - 127 + 24 - 23.
  const std::uint64_t m = (x & 0x7fffffu) | 0x800000u;
  const int shift = e - 127 + 1;
  const std::uint64_t fixed = shift >= 0 ? m << shift : (shift > -25 ? m >> -shift : 0);
  const int n = int(fixed >> 24);
  const std::uint32_t f = std::uint32_t(fixed & 0xffffffu);
  return negative ? scale(t.ex2_neg[f], -n) : scale(t.ex2_pos[f], n);
}

// floor(log2(v)) for v >= 1.
SIMT_MUFU_FN int floor_log2(unsigned v) {
  int k = 0;
  while (v >>= 1) ++k;
  return k;
}

SIMT_MUFU_FN std::uint32_t lg2(const Tables& t, std::uint32_t x) {
  if (is_nan(x)) return kNaN;
  const int be = biased_exponent(x);
  if (be == 0) return kSign | kInf;  // +-0 and subnormals: -inf
  if (x & kSign) return kNaN;
  if (be == 255) return kInf;
  const int e = be - 127;
  const std::uint32_t m = x & 0x7fffffu;
  if (e == 0) return t.lg2_one[m];
  if (e == -1) return t.lg2_half[m];
  // |S| >= 1 here: its last place u is 2^-23 or coarser, and L(m) rounded down to u
  // is the table's value rounded down to u (the table keeps 24 significant bits).
  union { std::uint32_t u; float f; } one{t.lg2_one[m]};
  const double l = one.f;
  const unsigned a = unsigned(e > 0 ? e : -e);
  const double u = double(1ull << (floor_log2(e > 0 ? a : a - 1) + 40)) * 0x1p-63;  // 2^(k - 23)
  const double l_down = double(static_cast<long long>(l / u)) * u;
  // e > 0: e + L rounded down. e < 0: the complement's magnitude |e| - L - 2^-36,
  // rounded down, is |e| - (L rounded down to u) - u.
  const double r = e > 0 ? double(a) + l_down : -(double(a) - l_down - u);
  union { float f; std::uint32_t u; } out{float(r)};
  return out.u;
}

// x / 2pi rounded toward zero (ptxas's FMUL.RZ before MUFU.SIN/COS), flushed.
SIMT_MUFU_FN std::uint32_t revolutions(std::uint32_t x) {
  union { std::uint32_t u; float f; } in{x}, c{0x3e22f983u};
  const double exact = double(in.f) * double(c.f);  // 24 x 24 bits: exact in double
  union { float f; std::uint32_t u; } r{float(exact)};
  if ((r.u & 0x7fffffffu) != 0 && (r.f > 0 ? double(r.f) > exact : double(r.f) < exact)) r.u -= 1;  // toward zero
  if (biased_exponent(r.u) == 0) r.u &= kSign;
  return r.u;
}

// MUFU.SIN (cosine = false) or MUFU.COS of x / 2pi: PTX sin/cos.approx.ftz.f32.
SIMT_MUFU_FN std::uint32_t sin_cos(const Tables& t, std::uint32_t x, bool cosine) {
  if (is_nan(x) || (x & 0x7fffffffu) == kInf) return kNaN;
  const std::uint32_t rev = revolutions(x);
  const int e = biased_exponent(rev);
  // |t| in units of 2^-25, modulo one revolution (2^25).
  std::uint64_t p = 0;
  if (e != 0) {
    const std::uint64_t m = (rev & 0x7fffffu) | 0x800000u;
    const int shift = e - 127 - 23 + 25;
    p = shift >= 25 ? 0 : shift >= 0 ? (m << shift) & 0x1ffffffu : (shift > -25 ? m >> -shift : 0);
  }
  const unsigned quadrant = unsigned(p >> 23);
  const std::uint32_t r = std::uint32_t(p & 0x7fffffu);
  const std::uint32_t s = t.sin_quarter[r], c = t.cos_quarter[r];
  if (cosine) {
    const std::uint32_t v[4] = {c, s ^ kSign, c ^ kSign, s};
    return v[quadrant];
  }
  const std::uint32_t v[4] = {s, c, s ^ kSign, c ^ kSign};
  return v[quadrant] ^ (rev & kSign);
}

}  // namespace simt::mufu
