// Helpers that `simt port` output relies on, for both builds (docs/dialect.md).
#pragma once

#include <type_traits>

#if defined(__CUDACC__) || defined(SIMT_CLANG_FRONTEND)  // plain CUDA types (nvcc, or clang + simtlab's pass)
#define SIMT_PORT_FN __host__ __device__ __forceinline__
namespace simt {
// The plain value of an expression: the identity on the GPU.
template <class X>
SIMT_PORT_FN constexpr auto val(const X& x) {
  return x;
}
}  // namespace simt
#else
#include "sim/cuda/scalar.hpp"

#include <cmath>
#define SIMT_PORT_FN SIMT_INLINE
namespace simt {
// The plain value of an expression: an f32 becomes the float it holds (one read,
// as before). Port wraps the operands of `c ? a : b` in it, because f32 and
// float convert both ways and C++ rejects such a conditional as ambiguous.
template <class X>
SIMT_PORT_FN constexpr auto val(const X& x) {
  if constexpr (is_scalar_v<X>) return x.get();
  else return x;
}
}  // namespace simt
#endif

namespace simt {
// CUDA's device max/min overloads (the simulator build has no global max/min):
// the usual arithmetic conversions pick the type, as CUDA's mixed overloads do,
// and floating point goes through fmaxf/fminf exactly as CUDA's max(float, float).
template <class A, class B>
SIMT_PORT_FN auto max(const A& a, const B& b) {
  auto x = val(a);
  auto y = val(b);
  using R = decltype(x + y);
  if constexpr (std::is_same_v<R, float>) return fmaxf(R(x), R(y));
  else if constexpr (std::is_same_v<R, double>) return fmax(R(x), R(y));
  else return R(x) < R(y) ? R(y) : R(x);
}
template <class A, class B>
SIMT_PORT_FN auto min(const A& a, const B& b) {
  auto x = val(a);
  auto y = val(b);
  using R = decltype(x + y);
  if constexpr (std::is_same_v<R, float>) return fminf(R(x), R(y));
  else if constexpr (std::is_same_v<R, double>) return fmin(R(x), R(y));
  else return R(y) < R(x) ? R(y) : R(x);
}
}  // namespace simt
