// cub::BlockRakingLayout: the shared grid raking algorithms place one partial per
// thread into, SEGMENT_LENGTH items per raking thread, padded by one word per
// segment where that avoids bank conflicts — CUB's sizes and offsets, so the bank
// conflicts counted are the GPU's.
#pragma once
#include "cub/util_type.cuh"

namespace cub {

template <class T, int BLOCK_THREADS> struct BlockRakingLayout {
  static constexpr int SHARED_ELEMENTS = BLOCK_THREADS;
  static constexpr int MAX_RAKING_THREADS = BLOCK_THREADS < detail::warp_threads ? BLOCK_THREADS : detail::warp_threads;
  static constexpr int SEGMENT_LENGTH = (SHARED_ELEMENTS + MAX_RAKING_THREADS - 1) / MAX_RAKING_THREADS;
  static constexpr int RAKING_THREADS = (SHARED_ELEMENTS + SEGMENT_LENGTH - 1) / SEGMENT_LENGTH;
  static constexpr int USE_SEGMENT_PADDING = ((SEGMENT_LENGTH & 1) == 0) && (SEGMENT_LENGTH > 2);
  static constexpr int GRID_ELEMENTS = RAKING_THREADS * (SEGMENT_LENGTH + USE_SEGMENT_PADDING);
  static constexpr bool UNGUARDED = (SHARED_ELEMENTS % RAKING_THREADS == 0);

  struct alignas(16) _TempStorage {
    T buff[GRID_ELEMENTS];
  };
  struct TempStorage : Uninitialized<_TempStorage> {};

  static __device__ __forceinline__ T* PlacementPtr(TempStorage& storage, unsigned linear_tid) {
    unsigned offset = linear_tid;
    if (USE_SEGMENT_PADDING > 0) offset += offset / SEGMENT_LENGTH;
    return storage.Alias().buff + offset;
  }
  static __device__ __forceinline__ T* RakingPtr(TempStorage& storage, unsigned linear_tid) {
    return storage.Alias().buff + linear_tid * (SEGMENT_LENGTH + USE_SEGMENT_PADDING);
  }
};

}  // namespace cub
