// Thrust's placeholder expressions (thrust::placeholders::_1 ... _10): `a * _1 + _2`
// is a function object of two arguments, as in CUDA 13's Thrust. Each expression is a
// small trivially copyable tree of values, argument slots and operators, so it reaches a
// kernel by value like any functor; calling it evaluates the tree on the arguments.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace thrust {
namespace detail::placeholder {

// The leaves: the I-th argument, or a value captured from the expression.
template <std::size_t I> struct argument {
  template <class... A> __host__ __device__ constexpr decltype(auto) eval(A&... a) const {
    return std::get<I>(std::tie(a...));
  }
};
template <class T> struct value {
  T v;
  template <class... A> __host__ __device__ constexpr const T& eval(A&...) const { return v; }
};
template <class Op, class L, class R> struct binary {
  L l;
  R r;
  template <class... A> __host__ __device__ constexpr auto eval(A&... a) const { return Op{}(l.eval(a...), r.eval(a...)); }
};
template <class Op, class X> struct unary {
  X x;
  template <class... A> __host__ __device__ constexpr auto eval(A&... a) const { return Op{}(x.eval(a...)); }
};

// What the user holds: an expression that can be called.
template <class E> struct actor {
  E e;
  template <class... A> __host__ __device__ constexpr decltype(auto) operator()(A&&... a) const { return e.eval(a...); }
};

template <class T> struct is_actor : std::false_type {};
template <class E> struct is_actor<actor<E>> : std::true_type {};
template <class T> constexpr auto leaf(const T& v) { return value<T>{v}; }
template <class E> constexpr E leaf(const actor<E>& a) { return a.e; }
template <class A, class B>
constexpr bool either_actor = is_actor<std::decay_t<A>>::value || is_actor<std::decay_t<B>>::value;

#define SIMT_PLACEHOLDER_BINARY(name, op)                                                                    \
  struct name {                                                                                             \
    template <class A, class B> __host__ __device__ constexpr auto operator()(const A& a, const B& b) const { \
      return a op b;                                                                                        \
    }                                                                                                       \
  };                                                                                                        \
  template <class A, class B, std::enable_if_t<either_actor<A, B>, int> = 0>                                \
  constexpr auto operator op(const A& a, const B& b) {                                                      \
    using L = decltype(leaf(a));                                                                            \
    using R = decltype(leaf(b));                                                                            \
    return actor<binary<name, L, R>>{{leaf(a), leaf(b)}};                                                   \
  }
SIMT_PLACEHOLDER_BINARY(add, +)
SIMT_PLACEHOLDER_BINARY(subtract, -)
SIMT_PLACEHOLDER_BINARY(multiply, *)
SIMT_PLACEHOLDER_BINARY(divide, /)
SIMT_PLACEHOLDER_BINARY(modulo, %)
SIMT_PLACEHOLDER_BINARY(equal, ==)
SIMT_PLACEHOLDER_BINARY(not_equal, !=)
SIMT_PLACEHOLDER_BINARY(less, <)
SIMT_PLACEHOLDER_BINARY(greater, >)
SIMT_PLACEHOLDER_BINARY(less_equal, <=)
SIMT_PLACEHOLDER_BINARY(greater_equal, >=)
SIMT_PLACEHOLDER_BINARY(logical_and, &&)
SIMT_PLACEHOLDER_BINARY(logical_or, ||)
SIMT_PLACEHOLDER_BINARY(bit_and, &)
SIMT_PLACEHOLDER_BINARY(bit_or, |)
SIMT_PLACEHOLDER_BINARY(bit_xor, ^)
#undef SIMT_PLACEHOLDER_BINARY

#define SIMT_PLACEHOLDER_UNARY(name, op)                                                                   \
  struct name {                                                                                           \
    template <class A> __host__ __device__ constexpr auto operator()(const A& a) const { return op a; }   \
  };                                                                                                      \
  template <class E> constexpr auto operator op(const actor<E>& a) { return actor<unary<name, E>>{{a.e}}; }
SIMT_PLACEHOLDER_UNARY(negate, -)
SIMT_PLACEHOLDER_UNARY(logical_not, !)
SIMT_PLACEHOLDER_UNARY(bit_not, ~)
#undef SIMT_PLACEHOLDER_UNARY

}  // namespace detail::placeholder

namespace placeholders {
inline constexpr detail::placeholder::actor<detail::placeholder::argument<0>> _1{};
inline constexpr detail::placeholder::actor<detail::placeholder::argument<1>> _2{};
inline constexpr detail::placeholder::actor<detail::placeholder::argument<2>> _3{};
inline constexpr detail::placeholder::actor<detail::placeholder::argument<3>> _4{};
inline constexpr detail::placeholder::actor<detail::placeholder::argument<4>> _5{};
inline constexpr detail::placeholder::actor<detail::placeholder::argument<5>> _6{};
inline constexpr detail::placeholder::actor<detail::placeholder::argument<6>> _7{};
inline constexpr detail::placeholder::actor<detail::placeholder::argument<7>> _8{};
inline constexpr detail::placeholder::actor<detail::placeholder::argument<8>> _9{};
inline constexpr detail::placeholder::actor<detail::placeholder::argument<9>> _10{};
}  // namespace placeholders

}  // namespace thrust
