// thrust::discard_iterator: an output that drops whatever is written to it; any system's.
#pragma once
#include <thrust/iterator/detail/random_access.h>

namespace thrust {
namespace detail {
struct discard_sink {
  template <class T> __host__ __device__ const discard_sink& operator=(const T&) const { return *this; }
};
}  // namespace detail

template <class System = void>
class discard_iterator : public detail::random_access<discard_iterator<System>, detail::discard_sink,
                                                      detail::discard_sink, detail::system::any> {
 public:
  __host__ __device__ explicit discard_iterator(std::ptrdiff_t i = 0) : index_(i) {}
  __host__ __device__ detail::discard_sink operator[](std::ptrdiff_t) const { return {}; }
  __host__ __device__ void advance(std::ptrdiff_t n) { index_ += n; }
  __host__ __device__ std::ptrdiff_t distance_to(const discard_iterator& o) const { return o.index_ - index_; }

 private:
  std::ptrdiff_t index_;
};

__host__ __device__ inline discard_iterator<> make_discard_iterator(std::ptrdiff_t i = 0) { return discard_iterator<>(i); }

}  // namespace thrust
