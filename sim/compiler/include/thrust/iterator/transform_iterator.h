// thrust::transform_iterator: f applied to each element of another iterator as it is
// read; the other iterator's system.
#pragma once
#include <thrust/iterator/detail/random_access.h>

#include <type_traits>
#include <utility>

namespace thrust {

template <class F, class It, class Reference = void, class Value = void>
class transform_iterator
    : public detail::random_access<
          transform_iterator<F, It, Reference, Value>,
          std::conditional_t<std::is_void_v<Value>, std::decay_t<std::invoke_result_t<F&, decltype(std::declval<It>()[0])>>, Value>,
          std::conditional_t<std::is_void_v<Reference>, std::invoke_result_t<F&, decltype(std::declval<It>()[0])>, Reference>,
          detail::system_of_v<It>, typename std::iterator_traits<It>::difference_type> {
  using difference = typename std::iterator_traits<It>::difference_type;

 public:
  using reference = std::conditional_t<std::is_void_v<Reference>, std::invoke_result_t<F&, decltype(std::declval<It>()[0])>, Reference>;
  __host__ __device__ transform_iterator() = default;
  __host__ __device__ transform_iterator(It it, F f) : it_(it), f_(f) {}
  __host__ __device__ reference operator[](difference n) const { return f_(it_[n]); }
  __host__ __device__ void advance(difference n) { it_ += n; }
  __host__ __device__ difference distance_to(const transform_iterator& o) const { return o.it_ - it_; }
  __host__ __device__ It base() const { return it_; }
  __host__ __device__ F functor() const { return f_; }
  auto device_view() const {
    auto inner = detail::device_view(it_);
    return transform_iterator<F, decltype(inner), Reference, Value>(inner, f_);
  }

 private:
  It it_;
  mutable F f_;  // called as it is: a functor's operator() need not be const
};

template <class F, class It> __host__ __device__ transform_iterator<F, It> make_transform_iterator(It it, F f) {
  return transform_iterator<F, It>(it, f);
}

}  // namespace thrust
