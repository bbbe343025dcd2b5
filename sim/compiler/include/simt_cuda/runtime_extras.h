// Runtime calls of real programs that the simulator answers on the host
// (docs/frontend.md): symbols of __constant__ data are host memory here.
#pragma once
#include "sim/cuda/runtime.hpp"

#include <cstring>

template <class T>
cudaError_t cudaMemcpyToSymbol(T& symbol, const void* src, std::size_t count, std::size_t offset = 0,
                               cudaMemcpyKind = cudaMemcpyHostToDevice) {
  if (offset + count > sizeof(T)) return cudaErrorInvalidValue;
  std::memcpy(reinterpret_cast<char*>(&symbol) + offset, src, count);
  return cudaSuccess;
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, std::size_t count, std::size_t offset = 0,
                                 cudaMemcpyKind = cudaMemcpyDeviceToHost) {
  if (offset + count > sizeof(T)) return cudaErrorInvalidValue;
  std::memcpy(dst, reinterpret_cast<const char*>(&symbol) + offset, count);
  return cudaSuccess;
}
