// thrust::transform_input_output_iterator: reading element i gives in_f(it[i]),
// writing v stores out_f(v) into it[i]; its system is the wrapped iterator's.
#pragma once
#include <thrust/iterator/detail/random_access.h>

#include <iterator>
#include <type_traits>
#include <utility>

namespace thrust {
namespace detail {
template <class Target, class InF, class OutF> struct transform_input_output_proxy {
  using value_type = std::decay_t<std::invoke_result_t<const InF&, Target>>;
  Target target;
  InF in_f;
  OutF out_f;
  __host__ __device__ operator value_type() const { return in_f(target); }
  template <class V> __host__ __device__ transform_input_output_proxy& operator=(V&& v) {
    target = out_f(std::forward<V>(v));
    return *this;
  }
  __host__ __device__ transform_input_output_proxy& operator=(const transform_input_output_proxy& o) {
    return *this = value_type(o);
  }
};
}  // namespace detail

template <class InF, class OutF, class It>
class transform_input_output_iterator
    : public detail::random_access<
          transform_input_output_iterator<InF, OutF, It>,
          typename detail::transform_input_output_proxy<decltype(std::declval<It>()[0]), InF, OutF>::value_type,
          detail::transform_input_output_proxy<decltype(std::declval<It>()[0]), InF, OutF>, detail::system_of_v<It>> {
 public:
  using reference = detail::transform_input_output_proxy<decltype(std::declval<It>()[0]), InF, OutF>;
  __host__ __device__ transform_input_output_iterator() = default;
  __host__ __device__ transform_input_output_iterator(It it, InF in_f, OutF out_f) : it_(it), in_f_(in_f), out_f_(out_f) {}
  __host__ __device__ reference operator[](std::ptrdiff_t n) const { return reference{it_[n], in_f_, out_f_}; }
  __host__ __device__ void advance(std::ptrdiff_t n) { it_ += n; }
  __host__ __device__ std::ptrdiff_t distance_to(const transform_input_output_iterator& o) const { return o.it_ - it_; }
  __host__ __device__ It base() const { return it_; }
  auto device_view() const {
    auto inner = detail::device_view(it_);
    return transform_input_output_iterator<InF, OutF, decltype(inner)>(inner, in_f_, out_f_);
  }

 private:
  It it_;
  InF in_f_;
  OutF out_f_;
};

template <class InF, class OutF, class It>
__host__ __device__ transform_input_output_iterator<InF, OutF, It> make_transform_input_output_iterator(It it, InF in_f, OutF out_f) {
  return transform_input_output_iterator<InF, OutF, It>(it, in_f, out_f);
}

}  // namespace thrust
