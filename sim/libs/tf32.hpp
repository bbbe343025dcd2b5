// TF32: float with its mantissa rounded to 10 bits (nearest even), as the tensor
// cores read FP32 inputs under CUBLAS_COMPUTE_32F_FAST_TF32.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

namespace simt::libs {

inline float round_to_tf32(float f) {
  if (!std::isfinite(f)) return f;
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  x = (x + 0xfffu + ((x >> 13) & 1u)) & ~0x1fffu;
  std::memcpy(&f, &x, 4);
  return f;
}

}  // namespace simt::libs
