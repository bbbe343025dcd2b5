// thrust::constant_iterator: one value repeated, without memory; any system's.
#pragma once
#include <thrust/iterator/detail/random_access.h>

namespace thrust {

template <class Value, class Incrementable = std::ptrdiff_t, class System = void>
class constant_iterator : public detail::random_access<constant_iterator<Value, Incrementable, System>, Value, Value,
                                                       detail::system::any> {
 public:
  __host__ __device__ constant_iterator() : value_(), index_() {}
  __host__ __device__ explicit constant_iterator(Value v, Incrementable i = Incrementable()) : value_(v), index_(i) {}
  __host__ __device__ Value operator[](std::ptrdiff_t) const { return value_; }
  __host__ __device__ void advance(std::ptrdiff_t n) { index_ = Incrementable(index_ + n); }
  __host__ __device__ std::ptrdiff_t distance_to(const constant_iterator& o) const { return std::ptrdiff_t(o.index_ - index_); }
  __host__ __device__ const Value& value() const { return value_; }
  __host__ __device__ Incrementable base() const { return index_; }

 private:
  Value value_;
  Incrementable index_;
};

template <class Value> __host__ __device__ constant_iterator<Value> make_constant_iterator(Value v) {
  return constant_iterator<Value>(v);
}
template <class Value, class Incrementable>
__host__ __device__ constant_iterator<Value, Incrementable> make_constant_iterator(Value v, Incrementable i) {
  return constant_iterator<Value, Incrementable>(v, i);
}

}  // namespace thrust
