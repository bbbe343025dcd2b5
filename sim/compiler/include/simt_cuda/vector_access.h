// Vector accesses for simtlab's CUDA libraries: one marker access of the vector's
// size (an LDS/LDG/STS/STG of 8 or 16 bytes on the GPU) and the data moved here,
// in simtlab's uninstrumented code, so the optimizer cannot turn the move into
// per-element accesses that the pass would count in the library's counted code.
// The empty asm keeps the optimizer from merging these loads with the same loads
// of another path (it merged the aligned and the misaligned path of a vectorized
// BlockLoad into one set of 4-byte loads at a line-0 location in CUB's code).
#pragma once
#include "simt_cuda/markers.h"

#include <cstdint>
#include <cstring>

namespace simt::cuda {

template <unsigned BYTES> inline void vector_load(void* dst, const void* src) {
  __simt_site_access(src, BYTES, 0);
  std::memcpy(dst, src, BYTES);
  __asm__ __volatile__("" ::: "memory");
}
template <unsigned BYTES> inline void vector_store(void* dst, const void* src) {
  __simt_site_access(dst, BYTES, 1);
  std::memcpy(dst, src, BYTES);
  __asm__ __volatile__("" ::: "memory");
}

// `bytes` contiguous bytes read as nvcc reads an unrolled run of loads from one
// base: the widest aligned access (16, 8, then 4 bytes) at each step.
inline void contiguous_load(void* dst, const void* src, unsigned bytes) {
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  while (bytes >= 4) {
    const auto a = reinterpret_cast<std::uintptr_t>(s);
    const unsigned size = (a % 16 == 0 && bytes >= 16) ? 16 : (a % 8 == 0 && bytes >= 8) ? 8 : 4;
    __simt_site_access(s, size, 0);
    std::memcpy(d, s, size);
    d += size, s += size, bytes -= size;
  }
}

}  // namespace simt::cuda
