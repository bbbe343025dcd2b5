// thrust::permutation_iterator: elements[indices[i]], read or written; the system of
// its two iterators together.
#pragma once
#include <thrust/iterator/detail/random_access.h>

#include <utility>

namespace thrust {

template <class ElementIt, class IndexIt>
class permutation_iterator
    : public detail::random_access<permutation_iterator<ElementIt, IndexIt>, typename std::iterator_traits<ElementIt>::value_type,
                                   decltype(std::declval<ElementIt>()[std::declval<IndexIt>()[0]]),
                                   detail::combine(detail::system_of_v<ElementIt>, detail::system_of_v<IndexIt>),
                                   typename std::iterator_traits<IndexIt>::difference_type> {
  using difference = typename std::iterator_traits<IndexIt>::difference_type;

 public:
  using reference = decltype(std::declval<ElementIt>()[std::declval<IndexIt>()[0]]);
  __host__ __device__ permutation_iterator() = default;
  __host__ __device__ permutation_iterator(ElementIt elements, IndexIt indices) : elements_(elements), indices_(indices) {}
  __host__ __device__ reference operator[](difference n) const { return elements_[indices_[n]]; }
  __host__ __device__ void advance(difference n) { indices_ += n; }
  __host__ __device__ difference distance_to(const permutation_iterator& o) const { return o.indices_ - indices_; }
  __host__ __device__ IndexIt base() const { return indices_; }
  auto device_view() const {
    auto e = detail::device_view(elements_);
    auto i = detail::device_view(indices_);
    return permutation_iterator<decltype(e), decltype(i)>(e, i);
  }

 private:
  ElementIt elements_;
  IndexIt indices_;
};

template <class ElementIt, class IndexIt>
__host__ __device__ permutation_iterator<ElementIt, IndexIt> make_permutation_iterator(ElementIt e, IndexIt i) {
  return permutation_iterator<ElementIt, IndexIt>(e, i);
}

}  // namespace thrust
