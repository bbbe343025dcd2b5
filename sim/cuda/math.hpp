// CUDA's math functions on instrumented scalars (simulator build). Plain float
// arguments keep using the C library; an f32 argument selects these, which
// count the operation the GPU would execute.
#pragma once
#include "sim/cuda/scalar.hpp"

#include <cmath>

#define SIMT_MATH2(name, impl)                                                              \
  template <class A, class B>                                                               \
    requires(simt::operand<A> && simt::operand<B> && (simt::is_scalar_v<A> || simt::is_scalar_v<B>)) \
  SIMT_INLINE auto name(const A& a, const B& b) {                                           \
    using R = simt::arith_result_t<A, B>;                                                   \
    return simt::Scalar<R>(impl(R(simt::value_of(a)), R(simt::value_of(b))));               \
  }
SIMT_MATH2(fminf, std::fmin)
SIMT_MATH2(fmaxf, std::fmax)
SIMT_MATH2(fmin, std::fmin)
SIMT_MATH2(fmax, std::fmax)
SIMT_MATH2(powf, std::pow)
SIMT_MATH2(pow, std::pow)
#undef SIMT_MATH2

template <class T> requires simt::is_scalar_v<T>
SIMT_INLINE T fabsf(const T& x) { return T(std::fabs(simt::value_of(x))); }
template <class T> requires simt::is_scalar_v<T>
SIMT_INLINE T fabs(const T& x) { return T(std::fabs(simt::value_of(x))); }

// fma is one FFMA (DFMA): a single rounding, exactly as on the GPU.
template <class A, class B, class C>
  requires(simt::operand<A> && simt::operand<B> && simt::operand<C> &&
           (simt::is_scalar_v<A> || simt::is_scalar_v<B> || simt::is_scalar_v<C>))
SIMT_INLINE auto fmaf(const A& a, const B& b, const C& c) {
  simt::count_fp(simt::FpOp::FFma);
  return simt::Scalar<float>(std::fma(float(simt::value_of(a)), float(simt::value_of(b)), float(simt::value_of(c))));
}
template <class A, class B, class C>
  requires(simt::operand<A> && simt::operand<B> && simt::operand<C> &&
           (simt::is_scalar_v<A> || simt::is_scalar_v<B> || simt::is_scalar_v<C>))
SIMT_INLINE auto fma(const A& a, const B& b, const C& c) {
  using R = std::common_type_t<simt::raw_t<A>, simt::raw_t<B>, simt::raw_t<C>>;
  simt::count_op<R>(simt::FpOp::FFma, simt::FpOp::DFma);
  return simt::Scalar<R>(std::fma(R(simt::value_of(a)), R(simt::value_of(b)), R(simt::value_of(c))));
}

// sqrt is correctly rounded on both sides (nvcc's default -prec-sqrt=true).
template <class T> requires simt::is_scalar_v<T>
SIMT_INLINE auto sqrtf(const T& x) {
  simt::count_fp(simt::FpOp::FSqrt);
  return simt::Scalar<float>(std::sqrt(float(simt::value_of(x))));
}
template <class T> requires simt::is_scalar_v<T>
SIMT_INLINE auto sqrt(const T& x) {
  using R = simt::raw_t<T>;
  simt::count_op<R>(simt::FpOp::FSqrt, simt::FpOp::DSqrt);
  return simt::Scalar<R>(std::sqrt(simt::value_of(x)));
}
