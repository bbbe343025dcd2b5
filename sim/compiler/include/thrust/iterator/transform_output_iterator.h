// thrust::transform_output_iterator: writing v through it stores f(v) into the
// iterator it wraps; its system is that iterator's.
#pragma once
#include <thrust/iterator/detail/random_access.h>

#include <iterator>
#include <utility>

namespace thrust {
namespace detail {
template <class Target, class F> struct transform_output_proxy {
  Target target;
  F f;
  template <class V> __host__ __device__ transform_output_proxy& operator=(V&& v) {
    target = f(std::forward<V>(v));
    return *this;
  }
};
}  // namespace detail

template <class F, class It>
class transform_output_iterator
    : public detail::random_access<transform_output_iterator<F, It>, void,
                                   detail::transform_output_proxy<decltype(std::declval<It>()[0]), F>, detail::system_of_v<It>> {
 public:
  using reference = detail::transform_output_proxy<decltype(std::declval<It>()[0]), F>;
  __host__ __device__ transform_output_iterator() = default;
  __host__ __device__ transform_output_iterator(It it, F f) : it_(it), f_(f) {}
  __host__ __device__ reference operator[](std::ptrdiff_t n) const { return reference{it_[n], f_}; }
  __host__ __device__ void advance(std::ptrdiff_t n) { it_ += n; }
  __host__ __device__ std::ptrdiff_t distance_to(const transform_output_iterator& o) const { return o.it_ - it_; }
  __host__ __device__ It base() const { return it_; }
  auto device_view() const {
    auto inner = detail::device_view(it_);
    return transform_output_iterator<F, decltype(inner)>(inner, f_);
  }

 private:
  It it_;
  F f_;
};

template <class F, class It> __host__ __device__ transform_output_iterator<F, It> make_transform_output_iterator(It it, F f) {
  return transform_output_iterator<F, It>(it, f);
}

}  // namespace thrust
