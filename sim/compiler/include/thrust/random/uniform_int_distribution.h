// simtlab's thrust::random::uniform_int_distribution: as CUDA 13's Thrust draws it, a
// uniform double in [a, b + 1) truncated to the integer type.
#pragma once
#include <thrust/random/uniform_real_distribution.h>

#include <limits>
#include <ostream>
#include <utility>

namespace thrust {
namespace random {

template <class IntType = int> class uniform_int_distribution {
 public:
  using result_type = IntType;
  using param_type = std::pair<IntType, IntType>;

  __host__ __device__ explicit uniform_int_distribution(IntType a = 0, IntType b = std::numeric_limits<IntType>::max())
      : p_(a, b) {}
  __host__ __device__ explicit uniform_int_distribution(const param_type& p) : p_(p) {}
  __host__ __device__ void reset() {}
  template <class URNG> __host__ __device__ result_type operator()(URNG& urng) { return (*this)(urng, p_); }
  template <class URNG> __host__ __device__ result_type operator()(URNG& urng, const param_type& p) {
    uniform_real_distribution<double> real(static_cast<double>(p.first), static_cast<double>(p.second) + 1.0);
    return static_cast<result_type>(real(urng));
  }
  __host__ __device__ result_type a() const { return p_.first; }
  __host__ __device__ result_type b() const { return p_.second; }
  __host__ __device__ param_type param() const { return p_; }
  __host__ __device__ void param(const param_type& p) { p_ = p; }
  __host__ __device__ result_type min() const { return a(); }
  __host__ __device__ result_type max() const { return b(); }
  friend std::ostream& operator<<(std::ostream& os, const uniform_int_distribution& d) {
    return os << d.a() << ' ' << d.b();
  }

 private:
  param_type p_;
};

}  // namespace random
using random::uniform_int_distribution;
}  // namespace thrust
