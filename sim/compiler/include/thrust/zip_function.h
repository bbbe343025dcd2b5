// thrust::zip_function: adapts a functor of N arguments to take one tuple of N (a
// zip_iterator's element), as Thrust's make_zip_function does.
#pragma once
#include <thrust/tuple.h>

namespace thrust {
template <class F> class zip_function {
 public:
  __host__ __device__ zip_function() = default;
  __host__ __device__ explicit zip_function(F f) : f_(f) {}
  template <class Tuple> __host__ __device__ decltype(auto) operator()(Tuple&& t) const {
    return ::cuda::std::apply(f_, static_cast<Tuple&&>(t));
  }
  __host__ __device__ F& underlying_function() const { return f_; }

 private:
  mutable F f_;  // called as it is: a functor's operator() need not be const
};
template <class F> __host__ __device__ zip_function<std::decay_t<F>> make_zip_function(F&& f) {
  return zip_function<std::decay_t<F>>(static_cast<F&&>(f));
}
}  // namespace thrust
