// Helpers that `simt port` output relies on, for both builds (docs/dialect.md).
#pragma once

#if defined(__CUDACC__)
namespace simt {
// The plain value of an expression: the identity on the GPU.
template <class X>
__host__ __device__ __forceinline__ constexpr auto val(const X& x) {
  return x;
}
}  // namespace simt
#else
#include "sim/scalar.hpp"
namespace simt {
// The plain value of an expression: an f32 becomes the float it holds (one read,
// as before). Port wraps the operands of `c ? a : b` in it, because f32 and
// float convert both ways and C++ rejects such a conditional as ambiguous.
template <class X>
SIMT_INLINE constexpr auto val(const X& x) {
  if constexpr (is_scalar_v<X>) return x.get();
  else return x;
}
}  // namespace simt
#endif
