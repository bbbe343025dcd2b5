// simtlab's thrust::device_vector: elements in simulated device memory (cudaMalloc),
// filled and read back with cudaMemcpy; begin()/end() are thrust::device_ptr, so the
// algorithms of simtlab's Thrust run on the device. thrust::host_vector is std::vector.
#pragma once
#include <thrust/device_ptr.h>
#include <thrust/host_vector.h>
#include <thrust/detail/algorithms.h>

#include <cuda_runtime.h>

#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <type_traits>
#include <vector>

namespace thrust {

template <class T> class device_vector {
 public:
  using value_type = T;
  using size_type = std::size_t;
  using iterator = device_ptr<T>;
  using const_iterator = device_ptr<const T>;
  using reference = device_reference<T>;

  device_vector() = default;
  // Value-initialized by a fill kernel, as CUDA 13's Thrust does.
  explicit device_vector(size_type n) { allocate(n); thrust::fill(begin(), end(), T()); }
  device_vector(size_type n, const T& value) { allocate(n); thrust::fill(begin(), end(), value); }
  device_vector(const std::vector<T>& h) { assign_host(h.data(), h.size()); }
  device_vector(std::initializer_list<T> h) { assign_host(h.begin(), h.size()); }
  device_vector(const device_vector& o) { assign_device(o.data_, o.size_); }
  device_vector(device_vector&& o) noexcept : data_(o.data_), size_(o.size_) { o.data_ = nullptr; o.size_ = 0; }
  template <class It, std::enable_if_t<!std::is_integral_v<It>, int> = 0> device_vector(It first, It last) {
    if constexpr (detail::is_device_iterator_v<It> && detail::is_contiguous_device_v<It>) {
      assign_device(detail::raw(first), size_type(last - first));
    } else if constexpr (detail::is_device_iterator_v<It>) {  // a fancy iterator: copied by a kernel
      allocate(size_type(last - first));
      thrust::copy(first, last, begin());
    } else {
      std::vector<T> h(first, last);
      assign_host(h.data(), h.size());
    }
  }
  ~device_vector() { cudaFree(data_); }

  device_vector& operator=(const device_vector& o) { if (this != &o) assign_device(o.data_, o.size_); return *this; }
  device_vector& operator=(device_vector&& o) noexcept { std::swap(data_, o.data_); std::swap(size_, o.size_); return *this; }
  device_vector& operator=(const std::vector<T>& h) { assign_host(h.data(), h.size()); return *this; }
  operator std::vector<T>() const {
    std::vector<T> h(size_);
    if (size_) cudaMemcpy(h.data(), data_, size_ * sizeof(T), cudaMemcpyDeviceToHost);
    return h;
  }

  size_type size() const { return size_; }
  bool empty() const { return size_ == 0; }
  iterator begin() { return iterator(data_); }
  iterator end() { return iterator(data_ + size_); }
  const_iterator begin() const { return const_iterator(data_); }
  const_iterator end() const { return const_iterator(data_ + size_); }
  const_iterator cbegin() const { return begin(); }
  const_iterator cend() const { return end(); }
  iterator data() { return begin(); }
  const_iterator data() const { return begin(); }
  reference operator[](size_type i) { return reference(data_ + i); }
  device_reference<const T> operator[](size_type i) const { return device_reference<const T>(data_ + i); }
  reference front() { return (*this)[0]; }
  reference back() { return (*this)[size_ - 1]; }
  device_reference<const T> front() const { return (*this)[0]; }
  device_reference<const T> back() const { return (*this)[size_ - 1]; }
  void clear() { resize(0); }
  void resize(size_type n, const T& value = T()) {
    T* old = data_;
    const size_type keep = n < size_ ? n : size_;
    data_ = nullptr;
    allocate_only(n);
    if (keep) cudaMemcpy(data_, old, keep * sizeof(T), cudaMemcpyDeviceToDevice);
    cudaFree(old);
    const size_type was = size_;
    size_ = n;
    if (n > was) thrust::fill(begin() + was, end(), value);
  }
  // The items after the erased ones move down (a device-to-device copy through a buffer).
  iterator erase(iterator first, iterator last) {
    const size_type at = size_type(first - begin()), count = size_type(last - first), tail = size_ - at - count;
    if (count == 0) return first;
    if (tail) {
      T* buffer = nullptr;
      cudaMalloc(&buffer, tail * sizeof(T));
      cudaMemcpy(buffer, data_ + at + count, tail * sizeof(T), cudaMemcpyDeviceToDevice);
      cudaMemcpy(data_ + at, buffer, tail * sizeof(T), cudaMemcpyDeviceToDevice);
      cudaFree(buffer);
    }
    size_ -= count;
    return begin() + at;
  }
  iterator erase(iterator pos) { return erase(pos, pos + 1); }
  void push_back(const T& v) {
    resize(size_ + 1);
    (*this)[size_ - 1] = v;
  }
  void swap(device_vector& o) noexcept { std::swap(data_, o.data_); std::swap(size_, o.size_); }

 private:
  void allocate_only(size_type n) { if (n) cudaMalloc(&data_, n * sizeof(T)); }
  void allocate(size_type n) { cudaFree(data_); data_ = nullptr; allocate_only(n); size_ = n; }
  void assign_host(const T* h, size_type n) { allocate(n); if (n) cudaMemcpy(data_, h, n * sizeof(T), cudaMemcpyHostToDevice); }
  void assign_device(const T* d, size_type n) { allocate(n); if (n) cudaMemcpy(data_, d, n * sizeof(T), cudaMemcpyDeviceToDevice); }

  T* data_ = nullptr;
  size_type size_ = 0;
};

}  // namespace thrust
