// What simtlab's device-wide CUB algorithms share on the host side: CUB's temp-storage
// layout (AliasTemporaries: each piece 256-byte aligned; a size query with
// d_temp_storage == nullptr only sets temp_storage_bytes), and the launch of a
// header-defined kernel template through the simulator's ordinary launch path (the
// one `k<<<g, b, 0, s>>>(args)` becomes), so CUB's kernels are counted, checked and
// recorded like the program's own, under CUB's kernel names.
#pragma once
#include "cub/util_type.cuh"

#include <cstddef>
#include <cstdint>
#include <utility>

namespace cub {
namespace detail {
namespace device {

inline constexpr std::size_t temp_alignment = 256;

inline std::size_t aligned_size(std::size_t bytes) { return (bytes + temp_alignment - 1) / temp_alignment * temp_alignment; }

// CUB's AliasTemporaries: the total (plus slack to align the base) on a size query;
// otherwise the pieces' addresses, or cudaErrorInvalidValue when the storage is too small.
template <int N>
inline cudaError_t alias_temporaries(void* d_temp_storage, std::size_t& temp_storage_bytes, void* (&pieces)[N],
                                     const std::size_t (&sizes)[N]) {
  std::size_t offsets[N], total = 0;
  for (int i = 0; i < N; ++i) {
    offsets[i] = total;
    total += aligned_size(sizes[i]);
  }
  total += temp_alignment - 1;
  if (d_temp_storage == nullptr) {
    temp_storage_bytes = total;
    return cudaSuccess;
  }
  if (temp_storage_bytes < total) return cudaErrorInvalidValue;
  const auto base = (reinterpret_cast<std::uintptr_t>(d_temp_storage) + temp_alignment - 1) / temp_alignment * temp_alignment;
  for (int i = 0; i < N; ++i) pieces[i] = reinterpret_cast<void*>(base + offsets[i]);
  return cudaSuccess;
}

// A launch as `kernel<<<grid, block, 0, stream>>>(args...)`; its cudaError_t.
template <class... P, class... A>
inline cudaError_t launch(void (*kernel)(P...), dim3 grid, dim3 block, cudaStream_t stream, A&&... args) {
  return static_cast<cudaError_t>(simt::launch(kernel, grid, block, 0, stream).run(std::forward<A>(args)...));
}

// Blocks of `kernel` one SM holds, times the SMs: CUB's device occupancy.
template <class... P> inline int device_occupancy(void (*kernel)(P...), int block_threads) {
  int device = 0, blocks = 1;
  cudaGetDevice(&device);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, device);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block_threads, 0);
  return (blocks > 0 ? blocks : 1) * prop.multiProcessorCount;
}

inline int ceil_div(long long a, long long b) { return int((a + b - 1) / b); }

}  // namespace device
}  // namespace detail
}  // namespace cub
