// IEEE binary16 and bfloat16 as raw 16-bit storage, converted to and from float
// with round-to-nearest-even (what cuBLAS writes and what __float2half_rn and
// __float2bfloat16 give). simtlab's GEMMs read and write 16-bit matrices through
// these, with no half-precision type needed.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

namespace simt::libs {

inline std::uint32_t float_bits(float f) { std::uint32_t x; std::memcpy(&x, &f, 4); return x; }
inline float bits_float(std::uint32_t x) { float f; std::memcpy(&f, &x, 4); return f; }

inline float bf16_to_float(std::uint16_t b) { return bits_float(std::uint32_t(b) << 16); }
inline std::uint16_t float_to_bf16(float f) {
  const std::uint32_t x = float_bits(f);
  if (std::isnan(f)) return std::uint16_t((x >> 16) | 0x40u);  // stays a (quiet) NaN
  return std::uint16_t((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

inline float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16;
  const int e = (h >> 10) & 0x1f;
  const std::uint32_t m = h & 0x3ffu;
  if (e == 0) {  // zero or subnormal: m x 2^-24, exact in float
    const float v = std::ldexp(float(m), -24);
    return sign ? -v : v;
  }
  if (e == 31) return bits_float(sign | 0x7f800000u | (m << 13));
  return bits_float(sign | (std::uint32_t(e - 15 + 127) << 23) | (m << 13));
}
inline std::uint16_t float_to_half(float f) {
  const std::uint32_t x = float_bits(f);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  if (std::isnan(f)) return std::uint16_t(sign | 0x7e00u);
  const int e = int((x >> 23) & 0xff) - 127 + 15;
  std::uint32_t m = x & 0x7fffffu;
  if (e >= 31) return std::uint16_t(sign | 0x7c00u);  // overflow and infinity
  if (e <= 0) {  // subnormal half (or zero): shift the full mantissa, round to even
    if (e < -10) return std::uint16_t(sign);
    m |= 0x800000u;
    const int shift = 14 - e;
    std::uint32_t h = m >> shift;
    const std::uint32_t rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1u))) ++h;
    return std::uint16_t(sign | h);
  }
  std::uint32_t h = (std::uint32_t(e) << 10) | (m >> 13);
  const std::uint32_t rem = m & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;  // may carry into the exponent: still right
  return std::uint16_t(sign | h);
}

// TF32: float with its mantissa rounded to 10 bits (nearest even), as the tensor
// cores read FP32 inputs under CUBLAS_COMPUTE_32F_FAST_TF32.
inline float round_to_tf32(float f) {
  if (!std::isfinite(f)) return f;
  const std::uint32_t x = float_bits(f);
  return bits_float((x + 0xfffu + ((x >> 13) & 1u)) & ~0x1fffu);
}

}  // namespace simt::libs
