// Instrumented scalars: f32, f64, i32, u32, i64, u64. They hold exactly a T and
// behave like one, but every read or write of one that lives in device memory is
// seen by the simulator (coalescing, bank conflicts, sanitizers), and every
// floating-point add/mul/fma is counted at its source line.
#pragma once
#include "sim/exec/context.hpp"

#include <cmath>
#include <concepts>
#include <type_traits>

namespace simt {

template <class T>
class Scalar;

template <class X> struct is_scalar : std::false_type {};
template <class T> struct is_scalar<Scalar<T>> : std::true_type {};
template <class X> constexpr bool is_scalar_v = is_scalar<std::remove_cvref_t<X>>::value;

template <class X> struct raw_type { using type = X; };
template <class T> struct raw_type<Scalar<T>> { using type = T; };
template <class X> using raw_t = typename raw_type<std::remove_cvref_t<X>>::type;

template <class X>
concept operand = std::is_arithmetic_v<raw_t<X>>;

template <class T>
class Scalar {
  static_assert(std::is_arithmetic_v<T>);

 public:
  using value_type = T;
  Scalar() = default;  // trivial: uninitialised, like the T it stands for
  SIMT_INLINE constexpr Scalar(T x) : v_(x) {}
  template <class U>
    requires(std::is_arithmetic_v<U> && !std::is_same_v<U, T>)
  SIMT_INLINE constexpr Scalar(U x) : v_(static_cast<T>(x)) {}
  template <class U>
    requires(!std::is_same_v<U, T>)
  SIMT_INLINE Scalar(const Scalar<U>& o) : v_(static_cast<T>(o.get())) {}
  SIMT_INLINE Scalar(const Scalar& o) : v_(o.get()) {}
  SIMT_INLINE Scalar& operator=(const Scalar& o) {
    set(o.get());
    return *this;
  }
  template <class U>
    requires operand<U>
  SIMT_INLINE Scalar& operator=(const U& o) {
    set(static_cast<T>(raw_value(o)));
    return *this;
  }

  SIMT_INLINE operator T() const { return get(); }

  // Reads/writes through these are the device-memory accesses the simulator sees.
  SIMT_INLINE T get() const {
    touch(this, sizeof(T), MemOp::Load);
    return v_;
  }
  SIMT_INLINE void set(T x) {
    touch(this, sizeof(T), MemOp::Store);
    v_ = x;
  }
  // Unobserved access, for the simulator's own use (atomics, memcpy).
  T& raw() { return v_; }
  const T& raw() const { return v_; }

  template <class U> requires operand<U> SIMT_INLINE Scalar& operator+=(const U& o) { return *this = *this + o; }
  template <class U> requires operand<U> SIMT_INLINE Scalar& operator-=(const U& o) { return *this = *this - o; }
  template <class U> requires operand<U> SIMT_INLINE Scalar& operator*=(const U& o) { return *this = *this * o; }
  template <class U> requires operand<U> SIMT_INLINE Scalar& operator/=(const U& o) { return *this = *this / o; }
  template <class U> requires(operand<U> && std::is_integral_v<T>) SIMT_INLINE Scalar& operator%=(const U& o) { set(get() % raw_value(o)); return *this; }
  template <class U> requires(operand<U> && std::is_integral_v<T>) SIMT_INLINE Scalar& operator&=(const U& o) { set(get() & raw_value(o)); return *this; }
  template <class U> requires(operand<U> && std::is_integral_v<T>) SIMT_INLINE Scalar& operator|=(const U& o) { set(get() | raw_value(o)); return *this; }
  template <class U> requires(operand<U> && std::is_integral_v<T>) SIMT_INLINE Scalar& operator^=(const U& o) { set(get() ^ raw_value(o)); return *this; }
  template <class U> requires(operand<U> && std::is_integral_v<T>) SIMT_INLINE Scalar& operator<<=(const U& o) { set(get() << raw_value(o)); return *this; }
  template <class U> requires(operand<U> && std::is_integral_v<T>) SIMT_INLINE Scalar& operator>>=(const U& o) { set(get() >> raw_value(o)); return *this; }
  SIMT_INLINE Scalar& operator++() requires std::is_integral_v<T> { set(get() + 1); return *this; }
  SIMT_INLINE Scalar& operator--() requires std::is_integral_v<T> { set(get() - 1); return *this; }
  SIMT_INLINE T operator++(int) requires std::is_integral_v<T> { T old = get(); set(old + 1); return old; }
  SIMT_INLINE T operator--(int) requires std::is_integral_v<T> { T old = get(); set(old - 1); return old; }
  SIMT_INLINE Scalar operator-() const { return Scalar(-get()); }  // a sign modifier, not an instruction
  SIMT_INLINE Scalar operator+() const { return *this; }

  template <class X> SIMT_INLINE static raw_t<X> raw_value(const X& x) {
    if constexpr (is_scalar_v<X>) return x.get();
    else return x;
  }

 private:
  T v_;
};

template <class X> SIMT_INLINE raw_t<X> value_of(const X& x) {
  if constexpr (is_scalar_v<X>) return x.get();
  else return x;
}

// Arithmetic follows C++'s usual conversions (float * double is double, as in
// CUDA); floating-point results stay instrumented, integer results are plain.
template <class A, class B>
using arith_result_t = std::common_type_t<raw_t<A>, raw_t<B>>;

template <class R> SIMT_INLINE auto wrap_result(R r) {
  if constexpr (std::is_floating_point_v<R>) return Scalar<R>(r);
  else return r;
}

template <class R> SIMT_INLINE void count_op(FpOp single, FpOp dbl) {
  if constexpr (std::is_same_v<R, float>) count_fp(single);
  else if constexpr (std::is_same_v<R, double>) count_fp(dbl);
}

#define SIMT_ARITH_OP(op, single, dbl)                                             \
  template <class A, class B>                                                      \
    requires(operand<A> && operand<B> && (is_scalar_v<A> || is_scalar_v<B>))      \
  SIMT_INLINE auto operator op(const A& a, const B& b) {                          \
    using R = arith_result_t<A, B>;                                               \
    R x = static_cast<R>(value_of(a)), y = static_cast<R>(value_of(b));           \
    count_op<R>(FpOp::single, FpOp::dbl);                                          \
    return wrap_result<R>(x op y);                                                 \
  }
SIMT_ARITH_OP(+, FAdd, DAdd)
SIMT_ARITH_OP(-, FAdd, DAdd)
SIMT_ARITH_OP(*, FMul, DMul)
SIMT_ARITH_OP(/, FDiv, DDiv)
#undef SIMT_ARITH_OP

#define SIMT_COMPARE_OP(op)                                                        \
  template <class A, class B>                                                      \
    requires(operand<A> && operand<B> && (is_scalar_v<A> || is_scalar_v<B>))      \
  SIMT_INLINE bool operator op(const A& a, const B& b) {                          \
    using R = arith_result_t<A, B>;                                               \
    return static_cast<R>(value_of(a)) op static_cast<R>(value_of(b));            \
  }
SIMT_COMPARE_OP(<)
SIMT_COMPARE_OP(<=)
SIMT_COMPARE_OP(>)
SIMT_COMPARE_OP(>=)
SIMT_COMPARE_OP(==)
SIMT_COMPARE_OP(!=)
#undef SIMT_COMPARE_OP

}  // namespace simt

// The names kernels use for scalars the simulator must see.
using f32 = simt::Scalar<float>;
using f64 = simt::Scalar<double>;
using i32 = simt::Scalar<int>;
using u32 = simt::Scalar<unsigned>;
using i64 = simt::Scalar<long long>;
using u64 = simt::Scalar<unsigned long long>;
static_assert(sizeof(f32) == 4 && sizeof(f64) == 8 && std::is_trivially_default_constructible_v<f32>);
