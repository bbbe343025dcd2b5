// cub::BlockLoad and CUB's direct loads: a tile of BLOCK_THREADS * ITEMS_PER_THREAD
// items from global memory into each thread's items, blocked (thread t gets items
// t*N .. t*N+N-1) in the end for every algorithm but STRIPED:
//   DIRECT          each thread reads its own N consecutive items
//   STRIPED         item i of thread t is tile[i*BLOCK + t] (coalesced)
//   VECTORIZE       DIRECT through vectors of CUB's device words (float x4: one
//                   16-byte load per vector, an LDG.128) when the tile pointer is
//                   aligned for them; otherwise, and with a bound, DIRECT
//   TRANSPOSE       STRIPED, then BlockExchange::StripedToBlocked in shared memory
//   WARP_TRANSPOSE  warp-striped, then WarpStripedToBlocked (only __syncwarp)
#pragma once
#include "cub/block/block_exchange.cuh"
#include "simt_cuda/vector_access.h"

#include <cstdint>

namespace cub {

enum BlockLoadAlgorithm {
  BLOCK_LOAD_DIRECT,
  BLOCK_LOAD_STRIPED,
  BLOCK_LOAD_VECTORIZE,
  BLOCK_LOAD_TRANSPOSE,
  BLOCK_LOAD_WARP_TRANSPOSE,
  BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED,
};

template <class T, int N, class It> __device__ __forceinline__ void LoadDirectBlocked(int tid, It src, T (&items)[N]) {
  for (int i = 0; i < N; ++i) items[i] = src[tid * N + i];
}
template <class T, int N, class It>
__device__ __forceinline__ void LoadDirectBlocked(int tid, It src, T (&items)[N], int valid) {
  for (int i = 0; i < N; ++i)
    if (tid * N + i < valid) items[i] = src[tid * N + i];
}
template <class T, int N, class It, class D>
__device__ __forceinline__ void LoadDirectBlocked(int tid, It src, T (&items)[N], int valid, D oob_default) {
  for (int i = 0; i < N; ++i) items[i] = oob_default;
  LoadDirectBlocked(tid, src, items, valid);
}
template <int BLOCK_THREADS, class T, int N, class It>
__device__ __forceinline__ void LoadDirectStriped(int tid, It src, T (&items)[N]) {
  for (int i = 0; i < N; ++i) items[i] = src[tid + i * BLOCK_THREADS];
}
template <int BLOCK_THREADS, class T, int N, class It>
__device__ __forceinline__ void LoadDirectStriped(int tid, It src, T (&items)[N], int valid) {
  for (int i = 0; i < N; ++i)
    if (tid + i * BLOCK_THREADS < valid) items[i] = src[tid + i * BLOCK_THREADS];
}
template <int BLOCK_THREADS, class T, int N, class It, class D>
__device__ __forceinline__ void LoadDirectStriped(int tid, It src, T (&items)[N], int valid, D oob_default) {
  for (int i = 0; i < N; ++i) items[i] = oob_default;
  LoadDirectStriped<BLOCK_THREADS>(tid, src, items, valid);
}
template <class T, int N, class It> __device__ __forceinline__ void LoadDirectWarpStriped(int tid, It src, T (&items)[N]) {
  const int lane = tid & (detail::warp_threads - 1), warp_offset = (tid >> detail::log2_warp_threads) * detail::warp_threads * N;
  for (int i = 0; i < N; ++i) items[i] = src[warp_offset + lane + i * detail::warp_threads];
}
template <class T, int N, class It>
__device__ __forceinline__ void LoadDirectWarpStriped(int tid, It src, T (&items)[N], int valid) {
  const int lane = tid & (detail::warp_threads - 1), warp_offset = (tid >> detail::log2_warp_threads) * detail::warp_threads * N;
  for (int i = 0; i < N; ++i)
    if (warp_offset + lane + i * detail::warp_threads < valid) items[i] = src[warp_offset + lane + i * detail::warp_threads];
}
template <class T, int N, class It, class D>
__device__ __forceinline__ void LoadDirectWarpStriped(int tid, It src, T (&items)[N], int valid, D oob_default) {
  for (int i = 0; i < N; ++i) items[i] = oob_default;
  LoadDirectWarpStriped(tid, src, items, valid);
}

namespace detail {
// CUB's UnitWord<T>::DeviceWord for scalar T: the widest of 8, 4, 2, 1 bytes that
// divides T's size and alignment.
template <class T> constexpr int device_word_bytes() {
  for (int w : {8, 4, 2}) if (sizeof(T) % w == 0 && alignof(T) % w == 0) return w;
  return 1;
}
}  // namespace detail

// CUB's InternalLoadDirectBlockedVectorized: vectors of up to 4 device words, each
// one access (simt_cuda/vector_access.h), when the tile is aligned for them.
template <class T, int N> __device__ __forceinline__ void LoadDirectBlockedVectorized(int tid, const T* src, T (&items)[N]) {
  constexpr int WORD = detail::device_word_bytes<T>();
  constexpr int WORDS = int(sizeof(T)) * N / WORD;
  constexpr int VEC = WORDS % 4 == 0 ? 4 : WORDS % 2 == 0 ? 2 : 1;
  // A vector of 4 eight-byte words is 32 bytes: two 16-byte loads on the GPU.
  constexpr unsigned PIECE_BYTES = VEC * WORD > 16 ? 16 : VEC * WORD;
  constexpr int PIECES = int(sizeof(T)) * N / int(PIECE_BYTES);
  const std::uintptr_t align = VEC * WORD > 16 ? 16 : VEC * WORD;
  if (reinterpret_cast<std::uintptr_t>(src) % align != 0) {  // CUB falls back to item-by-item loads
    for (int i = 0; i < N; ++i) simt::cuda::vector_load<sizeof(T)>(&items[i], src + tid * N + i);
    return;
  }
  const char* p = reinterpret_cast<const char*>(src) + std::size_t(tid) * sizeof(items);
  for (int i = 0; i < PIECES; ++i)
    simt::cuda::vector_load<PIECE_BYTES>(reinterpret_cast<char*>(items) + i * PIECE_BYTES, p + i * PIECE_BYTES);
}

template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockLoadAlgorithm ALGORITHM = BLOCK_LOAD_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockLoad {
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr bool EXCHANGES = ALGORITHM == BLOCK_LOAD_TRANSPOSE || ALGORITHM == BLOCK_LOAD_WARP_TRANSPOSE ||
                                    ALGORITHM == BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED;
  static_assert(ALGORITHM != BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED,
                "simtlab's cub::BlockLoad does not implement BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED yet");
  static_assert(ALGORITHM != BLOCK_LOAD_WARP_TRANSPOSE || BLOCK_THREADS % detail::warp_threads == 0,
                "BLOCK_LOAD_WARP_TRANSPOSE needs a block of whole warps");
  using Exchange = BlockExchange<T, BLOCK_DIM_X, ITEMS_PER_THREAD, false, BLOCK_DIM_Y, BLOCK_DIM_Z>;

 public:
  using TempStorage = std::conditional_t<EXCHANGES, typename Exchange::TempStorage, NullType>;

  __device__ __forceinline__ BlockLoad() : storage_(nullptr), tid_(detail::row_major_tid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z)) {
    static_assert(!EXCHANGES, "TRANSPOSE loads need a __shared__ TempStorage: BlockLoad(temp_storage)");
  }
  __device__ __forceinline__ explicit BlockLoad(TempStorage& s)
      : storage_(&s), tid_(detail::row_major_tid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z)) {}

  template <class It> __device__ __forceinline__ void Load(It src, T (&items)[ITEMS_PER_THREAD]) {
    if constexpr (ALGORITHM == BLOCK_LOAD_DIRECT) {
      LoadDirectBlocked(tid_, src, items);
    } else if constexpr (ALGORITHM == BLOCK_LOAD_STRIPED) {
      LoadDirectStriped<BLOCK_THREADS>(tid_, src, items);
    } else if constexpr (ALGORITHM == BLOCK_LOAD_VECTORIZE) {
      if constexpr (std::is_pointer_v<It>) LoadDirectBlockedVectorized(tid_, static_cast<const T*>(src), items);
      else LoadDirectBlocked(tid_, src, items);
    } else if constexpr (ALGORITHM == BLOCK_LOAD_TRANSPOSE) {
      LoadDirectStriped<BLOCK_THREADS>(tid_, src, items);
      Exchange(*storage_).StripedToBlocked(items, items);
    } else {
      LoadDirectWarpStriped(tid_, src, items);
      Exchange(*storage_).WarpStripedToBlocked(items, items);
    }
  }
  template <class It> __device__ __forceinline__ void Load(It src, T (&items)[ITEMS_PER_THREAD], int valid) {
    if constexpr (ALGORITHM == BLOCK_LOAD_DIRECT || ALGORITHM == BLOCK_LOAD_VECTORIZE) {
      LoadDirectBlocked(tid_, src, items, valid);
    } else if constexpr (ALGORITHM == BLOCK_LOAD_STRIPED) {
      LoadDirectStriped<BLOCK_THREADS>(tid_, src, items, valid);
    } else if constexpr (ALGORITHM == BLOCK_LOAD_TRANSPOSE) {
      LoadDirectStriped<BLOCK_THREADS>(tid_, src, items, valid);
      Exchange(*storage_).StripedToBlocked(items, items);
    } else {
      LoadDirectWarpStriped(tid_, src, items, valid);
      Exchange(*storage_).WarpStripedToBlocked(items, items);
    }
  }
  template <class It, class D> __device__ __forceinline__ void Load(It src, T (&items)[ITEMS_PER_THREAD], int valid, D oob_default) {
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) items[i] = oob_default;
    Load(src, items, valid);
  }

 private:
  TempStorage* storage_;
  int tid_;
};

}  // namespace cub
