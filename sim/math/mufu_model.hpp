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

struct Tables {
  const std::uint32_t* ex2_pos;  // [k] = ex2(k * 2^-24), k < 2^24
  const std::uint32_t* ex2_neg;  // [k] = ex2(-k * 2^-24), k < 2^24
  const std::uint32_t* rcp;      // [k] = rcp(1 + k * 2^-23), k < 2^23
  const std::uint32_t* rsq;      // [k] = rsqrt(float with bits 0x3f800000 + k), k < 2^24: [1, 4)
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

}  // namespace simt::mufu
