// thrust::zip_iterator: several iterators advanced together; element i is the tuple of
// their elements i (a tuple of references, so it can be written), its value_type the
// tuple of their values. The tuples are ::cuda::std::tuple (thrust::tuple). The system of all its iterators together.
#pragma once
#include <thrust/iterator/detail/random_access.h>
#include <thrust/tuple.h>

#include <cstddef>
#include <iterator>
#include <utility>

namespace thrust {
namespace detail {
template <class It> using element_reference_t = decltype(std::declval<It>()[0]);
}

template <class IteratorTuple> class zip_iterator;

template <class... Its>
class zip_iterator<::cuda::std::tuple<Its...>>
    : public detail::random_access<zip_iterator<::cuda::std::tuple<Its...>>, ::cuda::std::tuple<typename std::iterator_traits<Its>::value_type...>,
                                   ::cuda::std::tuple<detail::element_reference_t<Its>...>,
                                   (detail::system::any | ... | detail::system_of_v<Its>)> {
 public:
  using reference = ::cuda::std::tuple<detail::element_reference_t<Its>...>;
  __host__ __device__ zip_iterator() = default;
  __host__ __device__ explicit zip_iterator(::cuda::std::tuple<Its...> its) : its_(its) {}
  __host__ __device__ reference operator[](std::ptrdiff_t n) const { return at(n, std::index_sequence_for<Its...>{}); }
  __host__ __device__ void advance(std::ptrdiff_t n) { advance(n, std::index_sequence_for<Its...>{}); }
  __host__ __device__ std::ptrdiff_t distance_to(const zip_iterator& o) const {
    return std::ptrdiff_t(::cuda::std::get<0>(o.its_) - ::cuda::std::get<0>(its_));
  }
  __host__ __device__ const ::cuda::std::tuple<Its...>& get_iterator_tuple() const { return its_; }
  auto device_view() const { return device_view(std::index_sequence_for<Its...>{}); }

 private:
  // Element by element with std::get (no std::apply and lambdas in kernels).
  template <std::size_t... I> __host__ __device__ reference at(std::ptrdiff_t n, std::index_sequence<I...>) const {
    return reference(::cuda::std::get<I>(its_)[n]...);
  }
  template <std::size_t... I> __host__ __device__ void advance(std::ptrdiff_t n, std::index_sequence<I...>) {
    ((::cuda::std::get<I>(its_) += n), ...);
  }
  template <std::size_t... I> auto device_view(std::index_sequence<I...>) const {
    using View = ::cuda::std::tuple<decltype(detail::device_view(::cuda::std::get<I>(its_)))...>;
    return zip_iterator<View>(View(detail::device_view(::cuda::std::get<I>(its_))...));
  }

  ::cuda::std::tuple<Its...> its_;
};

template <class... Its> __host__ __device__ zip_iterator<::cuda::std::tuple<Its...>> make_zip_iterator(::cuda::std::tuple<Its...> its) {
  return zip_iterator<::cuda::std::tuple<Its...>>(its);
}
template <class... Its> __host__ __device__ zip_iterator<::cuda::std::tuple<Its...>> make_zip_iterator(Its... its) {
  return zip_iterator<::cuda::std::tuple<Its...>>(::cuda::std::tuple<Its...>(its...));
}

}  // namespace thrust
