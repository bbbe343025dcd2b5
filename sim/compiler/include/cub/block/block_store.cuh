// cub::BlockStore and CUB's direct stores: the mirror of BlockLoad. Items are
// blocked in the threads; DIRECT writes each thread's N consecutive items,
// STRIPED writes item i of thread t to tile[i*BLOCK + t], VECTORIZE writes
// vectors of T (float x4: one 16-byte store, an STG.128; CUB does not check the
// alignment here), TRANSPOSE and WARP_TRANSPOSE go blocked -> (warp-)striped
// through shared memory first. A bounded TRANSPOSE store passes the bound through
// shared memory after a barrier, as CUB does.
#pragma once
#include "cub/block/block_exchange.cuh"
#include "simt_cuda/vector_access.h"

namespace cub {

enum BlockStoreAlgorithm {
  BLOCK_STORE_DIRECT,
  BLOCK_STORE_STRIPED,
  BLOCK_STORE_VECTORIZE,
  BLOCK_STORE_TRANSPOSE,
  BLOCK_STORE_WARP_TRANSPOSE,
  BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED,
};

template <class T, int N, class It> __device__ __forceinline__ void StoreDirectBlocked(int tid, It dst, T (&items)[N]) {
  for (int i = 0; i < N; ++i) dst[tid * N + i] = items[i];
}
template <class T, int N, class It>
__device__ __forceinline__ void StoreDirectBlocked(int tid, It dst, T (&items)[N], int valid) {
  for (int i = 0; i < N; ++i)
    if (tid * N + i < valid) dst[tid * N + i] = items[i];
}
template <int BLOCK_THREADS, class T, int N, class It>
__device__ __forceinline__ void StoreDirectStriped(int tid, It dst, T (&items)[N]) {
  for (int i = 0; i < N; ++i) dst[tid + i * BLOCK_THREADS] = items[i];
}
template <int BLOCK_THREADS, class T, int N, class It>
__device__ __forceinline__ void StoreDirectStriped(int tid, It dst, T (&items)[N], int valid) {
  for (int i = 0; i < N; ++i)
    if (i * BLOCK_THREADS + tid < valid) dst[tid + i * BLOCK_THREADS] = items[i];
}
template <class T, int N, class It> __device__ __forceinline__ void StoreDirectWarpStriped(int tid, It dst, T (&items)[N]) {
  const int lane = tid & (detail::warp_threads - 1), warp_offset = (tid >> detail::log2_warp_threads) * detail::warp_threads * N;
  for (int i = 0; i < N; ++i) dst[warp_offset + lane + i * detail::warp_threads] = items[i];
}
template <class T, int N, class It>
__device__ __forceinline__ void StoreDirectWarpStriped(int tid, It dst, T (&items)[N], int valid) {
  const int lane = tid & (detail::warp_threads - 1), warp_offset = (tid >> detail::log2_warp_threads) * detail::warp_threads * N;
  for (int i = 0; i < N; ++i)
    if (warp_offset + lane + i * detail::warp_threads < valid) dst[warp_offset + lane + i * detail::warp_threads] = items[i];
}
// CUB's StoreDirectBlockedVectorized: vectors of T of up to 4 items, each one
// access (simt_cuda/vector_access.h); CUB checks no alignment here.
template <class T, int N> __device__ __forceinline__ void StoreDirectBlockedVectorized(int tid, T* dst, T (&items)[N]) {
  constexpr int MAX_VEC = N < 4 ? N : 4;
  constexpr int VEC = (((MAX_VEC - 1) & MAX_VEC) == 0 && N % MAX_VEC == 0) ? MAX_VEC : 1;
  constexpr unsigned BYTES = sizeof(T) * VEC;
  static_assert(BYTES <= 16, "simtlab's vectorized store handles vectors of up to 16 bytes");
  char* out = reinterpret_cast<char*>(dst) + std::size_t(tid) * sizeof(items);
  for (int i = 0; i < N / VEC; ++i)
    simt::cuda::vector_store<BYTES>(out + i * BYTES, reinterpret_cast<const char*>(items) + i * BYTES);
}

template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockStoreAlgorithm ALGORITHM = BLOCK_STORE_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockStore {
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr bool EXCHANGES = ALGORITHM == BLOCK_STORE_TRANSPOSE || ALGORITHM == BLOCK_STORE_WARP_TRANSPOSE ||
                                    ALGORITHM == BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED;
  static_assert(ALGORITHM != BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED,
                "simtlab's cub::BlockStore does not implement BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED yet");
  using Exchange = BlockExchange<T, BLOCK_DIM_X, ITEMS_PER_THREAD, false, BLOCK_DIM_Y, BLOCK_DIM_Z>;
  struct _ExchangeStorage : Exchange::TempStorage {
    volatile int valid_items;  // CUB's: thread 0 publishes the bound
  };

 public:
  using TempStorage = std::conditional_t<EXCHANGES, Uninitialized<_ExchangeStorage>, NullType>;

  __device__ __forceinline__ BlockStore() : storage_(nullptr), tid_(detail::row_major_tid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z)) {
    static_assert(!EXCHANGES, "TRANSPOSE stores need a __shared__ TempStorage: BlockStore(temp_storage)");
  }
  __device__ __forceinline__ explicit BlockStore(TempStorage& s)
      : storage_(&s), tid_(detail::row_major_tid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z)) {}

  template <class It> __device__ __forceinline__ void Store(It dst, T (&items)[ITEMS_PER_THREAD]) {
    if constexpr (ALGORITHM == BLOCK_STORE_DIRECT) {
      StoreDirectBlocked(tid_, dst, items);
    } else if constexpr (ALGORITHM == BLOCK_STORE_STRIPED) {
      StoreDirectStriped<BLOCK_THREADS>(tid_, dst, items);
    } else if constexpr (ALGORITHM == BLOCK_STORE_VECTORIZE) {
      if constexpr (std::is_pointer_v<It>) StoreDirectBlockedVectorized(tid_, dst, items);
      else StoreDirectBlocked(tid_, dst, items);
    } else if constexpr (ALGORITHM == BLOCK_STORE_TRANSPOSE) {
      exchange().BlockedToStriped(items, items);
      StoreDirectStriped<BLOCK_THREADS>(tid_, dst, items);
    } else {
      exchange().BlockedToWarpStriped(items, items);
      StoreDirectWarpStriped(tid_, dst, items);
    }
  }
  template <class It> __device__ __forceinline__ void Store(It dst, T (&items)[ITEMS_PER_THREAD], int valid) {
    if constexpr (ALGORITHM == BLOCK_STORE_DIRECT || ALGORITHM == BLOCK_STORE_VECTORIZE) {
      StoreDirectBlocked(tid_, dst, items, valid);
    } else if constexpr (ALGORITHM == BLOCK_STORE_STRIPED) {
      StoreDirectStriped<BLOCK_THREADS>(tid_, dst, items, valid);
    } else {
      if constexpr (ALGORITHM == BLOCK_STORE_TRANSPOSE) exchange().BlockedToStriped(items, items);
      else exchange().BlockedToWarpStriped(items, items);
      if (tid_ == 0) storage_->Alias().valid_items = valid;
      __syncthreads();
      const int bound = storage_->Alias().valid_items;
      if constexpr (ALGORITHM == BLOCK_STORE_TRANSPOSE) StoreDirectStriped<BLOCK_THREADS>(tid_, dst, items, bound);
      else StoreDirectWarpStriped(tid_, dst, items, bound);
    }
  }

 private:
  __device__ __forceinline__ Exchange exchange() {
    return Exchange(*reinterpret_cast<typename Exchange::TempStorage*>(storage_));
  }
  TempStorage* storage_;
  int tid_;
};

}  // namespace cub
