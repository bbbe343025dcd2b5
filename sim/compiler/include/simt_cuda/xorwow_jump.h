// XORWOW jump-ahead for simtlab's <curand_kernel.h>: the xorshift part of XORWOW is
// linear over GF(2) on its 160 state bits, so n steps are the n-th power of its
// 160x160 step matrix M. CUDA's curand_init applies precomputed powers of M (from
// its curand_precalc.h tables) for the subsequence (2^67 steps each) and the offset;
// simtlab computes the same powers once, by repeated squaring: M^(2^k) for the
// offset and M^(2^(67+k)) for the subsequence. The same linear map, so the same
// state. This is simtlab's machinery (not instrumented): on the GPU these are loads
// from the precalc table, which simtlab does not count (docs/frontend.md).
#pragma once
#include <array>
#include <cstdint>

namespace simt::rng {

using State160 = std::array<std::uint32_t, 5>;
// Column i is the image of basis vector e_i (bit i%32 of word i/32).
using Matrix160 = std::array<State160, 160>;

inline State160 xorshift_step(State160 v) {
  std::uint32_t t = v[0] ^ (v[0] >> 2);
  State160 r{v[1], v[2], v[3], v[4], 0};
  r[4] = (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1));
  return r;
}
inline State160 jump_apply(const Matrix160& m, const State160& v) {
  State160 r{};
  for (int i = 0; i < 160; ++i)
    if ((v[i / 32] >> (i % 32)) & 1u)
      for (int w = 0; w < 5; ++w) r[w] ^= m[i][w];
  return r;
}
inline Matrix160 square(const Matrix160& m) {
  Matrix160 r;
  for (int i = 0; i < 160; ++i) r[i] = jump_apply(m, m[i]);
  return r;
}

struct JumpTables {
  std::array<Matrix160, 64> offset;       // M^(2^k)
  std::array<Matrix160, 64> subsequence;  // M^(2^(67+k))
  JumpTables() {
    Matrix160 m;
    for (int i = 0; i < 160; ++i) {
      State160 e{};
      e[i / 32] = 1u << (i % 32);
      m[i] = xorshift_step(e);
    }
    for (int k = 0; k < 64; ++k) {
      offset[k] = m;
      m = square(m);
    }
    for (int k = 64; k < 67; ++k) m = square(m);  // m = M^(2^67)
    for (int k = 0; k < 64; ++k) {
      subsequence[k] = m;
      m = square(m);
    }
  }
};
inline const JumpTables& jump_tables() {
  static const JumpTables tables;  // built on first use (about 20 ms)
  return tables;
}

// Advances v by n * 2^67 (subsequence) or n (offset) xorshift steps.
inline void xorwow_jump(std::uint32_t* v, unsigned long long n, bool subsequence) {
  const JumpTables& t = jump_tables();
  State160 s{v[0], v[1], v[2], v[3], v[4]};
  for (int k = 0; k < 64 && (n >> k); ++k)
    if ((n >> k) & 1ull) s = jump_apply(subsequence ? t.subsequence[k] : t.offset[k], s);
  for (int w = 0; w < 5; ++w) v[w] = s[w];
}

}  // namespace simt::rng
