// simtlab's thrust::random::uniform_real_distribution: CUDA 13's mapping of one draw to
// [a, b): (x − min) / (1 + max − min), then scaled, in RealType (double by default).
// A kernel built by nvcc may fuse the scaling into one FMA; simtlab computes it as written.
#pragma once
#include <ostream>
#include <utility>

namespace thrust {
namespace random {

template <class RealType = double> class uniform_real_distribution {
 public:
  using result_type = RealType;
  using param_type = std::pair<RealType, RealType>;

  __host__ __device__ explicit uniform_real_distribution(RealType a = 0.0, RealType b = 1.0) : p_(a, b) {}
  __host__ __device__ explicit uniform_real_distribution(const param_type& p) : p_(p) {}
  __host__ __device__ void reset() {}
  template <class URNG> __host__ __device__ result_type operator()(URNG& urng) { return (*this)(urng, p_); }
  template <class URNG> __host__ __device__ result_type operator()(URNG& urng, const param_type& p) {
    result_type r = static_cast<result_type>(urng() - URNG::min);
    r /= result_type(1) + static_cast<result_type>(URNG::max - URNG::min);
    return r * (p.second - p.first) + p.first;
  }
  __host__ __device__ result_type a() const { return p_.first; }
  __host__ __device__ result_type b() const { return p_.second; }
  __host__ __device__ param_type param() const { return p_; }
  __host__ __device__ void param(const param_type& p) { p_ = p; }
  __host__ __device__ result_type min() const { return a(); }
  __host__ __device__ result_type max() const { return b(); }
  friend std::ostream& operator<<(std::ostream& os, const uniform_real_distribution& d) {
    return os << d.a() << ' ' << d.b();
  }

 private:
  param_type p_;
};

}  // namespace random
using random::uniform_real_distribution;
}  // namespace thrust
