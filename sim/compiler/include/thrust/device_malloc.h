// thrust/device_malloc.h: device_malloc<T>(n) (cudaMalloc, as Thrust's), device_free.
#pragma once
#include <thrust/device_ptr.h>

#include <cstddef>
#include <new>

namespace thrust {
template <class T = void> device_ptr<T> device_malloc(std::size_t n) {
  void* p = nullptr;
  if (cudaMalloc(&p, n * sizeof(std::conditional_t<std::is_void_v<T>, char, T>)) != cudaSuccess) throw std::bad_alloc();
  return device_ptr<T>(static_cast<T*>(p));
}
template <class T> void device_free(device_ptr<T> p) { cudaFree(const_cast<std::remove_const_t<T>*>(p.get())); }
}  // namespace thrust
