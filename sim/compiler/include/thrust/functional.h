// Thrust's function objects (thrust/functional.h). As in CUDA 13, plus, minus,
// multiplies, maximum and minimum are libcu++'s (so CUB's algorithms see the operators
// they are tuned for); the others are defined here.
#pragma once
#include <cuda/functional>
#include <cuda/std/functional>
#include <cuda_runtime.h>
#include <thrust/detail/placeholders.h>

namespace thrust {

using ::cuda::maximum;
using ::cuda::minimum;
using ::cuda::std::minus;
using ::cuda::std::multiplies;
using ::cuda::std::plus;

#define SIMT_THRUST_BINARY(name, expr)                                                                      \
  template <class T = void> struct name {                                                                 \
    __host__ __device__ constexpr auto operator()(const T& a, const T& b) const { return expr; }           \
  };                                                                                                      \
  template <> struct name<void> {                                                                         \
    template <class A, class B> __host__ __device__ constexpr auto operator()(const A& a, const B& b) const { \
      return expr;                                                                                        \
    }                                                                                                     \
  };
SIMT_THRUST_BINARY(divides, a / b)
SIMT_THRUST_BINARY(modulus, a % b)
SIMT_THRUST_BINARY(equal_to, a == b)
SIMT_THRUST_BINARY(not_equal_to, a != b)
SIMT_THRUST_BINARY(less, a < b)
SIMT_THRUST_BINARY(greater, a > b)
SIMT_THRUST_BINARY(less_equal, a <= b)
SIMT_THRUST_BINARY(greater_equal, a >= b)
#undef SIMT_THRUST_BINARY

template <class T = void> struct negate {
  __host__ __device__ constexpr T operator()(const T& a) const { return -a; }
};
template <class T = void> struct identity {
  __host__ __device__ constexpr T operator()(const T& a) const { return a; }
};
template <class T = void> struct square {
  __host__ __device__ constexpr T operator()(const T& a) const { return a * a; }
};

}  // namespace thrust
