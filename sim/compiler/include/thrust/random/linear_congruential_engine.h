// simtlab's thrust::random::linear_congruential_engine and its two named forms: x ← (a·x + c)
// mod m, computed as CUDA 13's Thrust computes it (Schrage's decomposition for a modulus
// that does not fit the product, so no wider type is needed), so the same seed gives the
// same sequence on the host and in kernels. default_random_engine is minstd_rand.
#pragma once
#include <cstdint>
#include <ostream>

namespace thrust {
namespace random {

template <class UIntType, UIntType a, UIntType c, UIntType m> class linear_congruential_engine {
 public:
  using result_type = UIntType;
  static const result_type multiplier = a;
  static const result_type increment = c;
  static const result_type modulus = m;
  static const result_type min = c == 0u ? 1u : 0u;
  static const result_type max = m - 1u;
  static const result_type default_seed = 1u;

  __host__ __device__ explicit linear_congruential_engine(result_type s = default_seed) { seed(s); }
  __host__ __device__ void seed(result_type s = default_seed) {
    x_ = (step<1, 0>(c) == 0 && step<1, 0>(s) == 0) ? step<1, 0>(1) : step<1, 0>(s);
  }
  __host__ __device__ result_type operator()() { return x_ = step<a, c>(x_); }
  // z draws skipped in O(log z): the map x ↦ a·x + c composed with itself by squaring.
  __host__ __device__ void discard(unsigned long long z) {
    if constexpr (m == 0) {  // arithmetic modulo 2^w: one step at a time
      for (; z; --z) (*this)();
    } else {
      unsigned long long mul = 1, add = 0, pa = a % m, pc = c % m;
      for (; z; z >>= 1) {
        if (z & 1) { mul = mul * pa % m; add = (add * pa + pc) % m; }
        pc = (pc * pa + pc) % m;
        pa = pa * pa % m;
      }
      x_ = result_type((mul * x_ + add) % m);
    }
  }
  __host__ __device__ bool operator==(const linear_congruential_engine& o) const { return x_ == o.x_; }
  __host__ __device__ bool operator!=(const linear_congruential_engine& o) const { return x_ != o.x_; }
  friend std::ostream& operator<<(std::ostream& os, const linear_congruential_engine& e) { return os << e.x_; }

 private:
  // (A·x + C) mod m: Schrage's method for the product, then C added without overflow.
  template <UIntType A, UIntType C> __host__ __device__ static UIntType step(UIntType x) {
    if constexpr (m == 0) {  // the modulus is 2^w: unsigned arithmetic wraps
      return A * x + C;
    } else if constexpr (A == 1) {
      x %= m;
    } else {
      constexpr UIntType q = m / A, r = m % A;
      const UIntType t1 = A * (x % q), t2 = r * (x / q);
      x = t1 >= t2 ? t1 - t2 : m - t2 + t1;
    }
    if constexpr (C != 0) {
      const UIntType d = m - x;
      x = d > C ? x + C : C - d;
    }
    return x;
  }
  result_type x_;
};

using minstd_rand0 = linear_congruential_engine<std::uint32_t, 16807, 0, 2147483647>;
using minstd_rand = linear_congruential_engine<std::uint32_t, 48271, 0, 2147483647>;
using default_random_engine = minstd_rand;

}  // namespace random
using random::default_random_engine;
using random::linear_congruential_engine;
using random::minstd_rand;
using random::minstd_rand0;
}  // namespace thrust
