// The arithmetic every simtlab fancy iterator shares (CRTP): a derived iterator gives
// `advance(n)`, `distance_to(other)` and `operator[]`; this adds ++, --, +, -, the
// comparisons and `*` (element 0). It also names the iterator's system: where an
// algorithm over it runs (thrust/iterator/detail/system.h).
#pragma once
#include <thrust/iterator/detail/system.h>

#include <cstddef>
#include <iterator>

namespace thrust::detail {

template <class Derived, class Value, class Reference, system System, class Difference = std::ptrdiff_t>
class random_access {
 public:
  using iterator_category = std::random_access_iterator_tag;
  using value_type = Value;
  using difference_type = Difference;
  using reference = Reference;
  using pointer = void;
  static constexpr system simt_thrust_system = System;

  __host__ __device__ reference operator*() const { return self()[0]; }
  __host__ __device__ Derived& operator++() { return self().advance(1), self(); }
  __host__ __device__ Derived operator++(int) { Derived r = self(); self().advance(1); return r; }
  __host__ __device__ Derived& operator--() { return self().advance(-1), self(); }
  __host__ __device__ Derived operator--(int) { Derived r = self(); self().advance(-1); return r; }
  __host__ __device__ Derived& operator+=(difference_type n) { return self().advance(n), self(); }
  __host__ __device__ Derived& operator-=(difference_type n) { return self().advance(-n), self(); }
  __host__ __device__ Derived operator+(difference_type n) const { Derived r = self(); r.advance(n); return r; }
  __host__ __device__ friend Derived operator+(difference_type n, const Derived& it) { return it + n; }
  __host__ __device__ Derived operator-(difference_type n) const { Derived r = self(); r.advance(-n); return r; }
  __host__ __device__ difference_type operator-(const Derived& o) const { return o.distance_to(self()); }
  __host__ __device__ bool operator==(const Derived& o) const { return self().distance_to(o) == 0; }
  __host__ __device__ bool operator!=(const Derived& o) const { return !(*this == o); }
  __host__ __device__ bool operator<(const Derived& o) const { return self().distance_to(o) > 0; }
  __host__ __device__ bool operator>(const Derived& o) const { return o < self(); }
  __host__ __device__ bool operator<=(const Derived& o) const { return !(o < self()); }
  __host__ __device__ bool operator>=(const Derived& o) const { return !(self() < o); }

 private:
  __host__ __device__ Derived& self() { return static_cast<Derived&>(*this); }
  __host__ __device__ const Derived& self() const { return static_cast<const Derived&>(*this); }
};

}  // namespace thrust::detail
