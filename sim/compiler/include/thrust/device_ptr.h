// simtlab's thrust::device_ptr and thrust::device_reference: a typed pointer into
// simulated device memory. Host code that dereferences one copies the element with
// cudaMemcpy, as Thrust does; Thrust's algorithms take the raw pointer inside
// (thrust::raw_pointer_cast) into their kernels.
#pragma once
#include <cuda_runtime.h>
#include <cuda/std/functional>
#include <cuda/std/iterator>

#include <cstddef>
#include <iterator>
#include <type_traits>

namespace thrust {

template <class T> class device_reference {
 public:
  explicit device_reference(T* p) : p_(p) {}
  operator T() const {
    std::remove_const_t<T> v;
    cudaMemcpy(&v, p_, sizeof(T), cudaMemcpyDeviceToHost);
    return v;
  }
  device_reference& operator=(const T& v) {
    cudaMemcpy(p_, &v, sizeof(T), cudaMemcpyHostToDevice);
    return *this;
  }
  device_reference& operator=(const device_reference& o) { return *this = T(o); }

 private:
  T* p_;
};

template <class T> class device_ptr {
 public:
  using iterator_category = std::random_access_iterator_tag;
  using value_type = std::remove_const_t<T>;
  using difference_type = std::ptrdiff_t;
  using pointer = T*;
  using reference = device_reference<T>;

  device_ptr() : p_(nullptr) {}
  explicit device_ptr(T* p) : p_(p) {}
  template <class U, std::enable_if_t<std::is_convertible_v<U*, T*>, int> = 0> device_ptr(const device_ptr<U>& o) : p_(o.get()) {}

  T* get() const { return p_; }
  reference operator*() const { return reference(p_); }
  reference operator[](difference_type i) const { return reference(p_ + i); }
  device_ptr& operator++() { ++p_; return *this; }
  device_ptr operator++(int) { device_ptr r = *this; ++p_; return r; }
  device_ptr& operator--() { --p_; return *this; }
  device_ptr operator--(int) { device_ptr r = *this; --p_; return r; }
  device_ptr& operator+=(difference_type n) { p_ += n; return *this; }
  device_ptr& operator-=(difference_type n) { p_ -= n; return *this; }
  device_ptr operator+(difference_type n) const { return device_ptr(p_ + n); }
  device_ptr operator-(difference_type n) const { return device_ptr(p_ - n); }
  difference_type operator-(const device_ptr& o) const { return p_ - o.p_; }
  bool operator==(const device_ptr& o) const { return p_ == o.p_; }
  bool operator!=(const device_ptr& o) const { return p_ != o.p_; }
  bool operator<(const device_ptr& o) const { return p_ < o.p_; }

 private:
  T* p_;
};

template <class T> device_ptr<T> device_pointer_cast(T* p) { return device_ptr<T>(p); }
template <class T> device_ptr<T> device_pointer_cast(device_ptr<T> p) { return p; }
template <class T> T* raw_pointer_cast(device_ptr<T> p) { return p.get(); }
template <class T> T* raw_pointer_cast(T* p) { return p; }

}  // namespace thrust
