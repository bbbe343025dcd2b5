// thrust::counting_iterator: the sequence start, start + 1, ... without memory; any
// system's (an algorithm over it and a device_vector runs on the device).
#pragma once
#include <thrust/iterator/detail/random_access.h>

namespace thrust {

template <class Incrementable, class System = void, class Traversal = void, class Difference = std::ptrdiff_t>
class counting_iterator
    : public detail::random_access<counting_iterator<Incrementable, System, Traversal, Difference>, Incrementable,
                                   Incrementable, detail::system::any, Difference> {
 public:
  __host__ __device__ counting_iterator() : value_() {}
  __host__ __device__ explicit counting_iterator(Incrementable start) : value_(start) {}
  __host__ __device__ Incrementable operator[](Difference n) const { return Incrementable(value_ + n); }
  __host__ __device__ void advance(Difference n) { value_ = Incrementable(value_ + n); }
  __host__ __device__ Difference distance_to(const counting_iterator& o) const { return Difference(o.value_ - value_); }
  __host__ __device__ const Incrementable& base() const { return value_; }

 private:
  Incrementable value_;
};

template <class Incrementable> __host__ __device__ counting_iterator<Incrementable> make_counting_iterator(Incrementable x) {
  return counting_iterator<Incrementable>(x);
}

}  // namespace thrust
