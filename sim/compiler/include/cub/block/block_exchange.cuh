// cub::BlockExchange (without warp time-slicing): rearranges items between blocked
// (thread t holds items t*N .. t*N+N-1), striped (item i of thread t is i*BLOCK+t)
// and warp-striped arrangements through shared memory, with CUB's offsets and its
// padding of one word per 32 items when N is a power of two above 4 — so the
// shared wavefronts and bank conflicts counted are the GPU's. A thread's blocked
// items are contiguous and (unpadded) aligned to their size: nvcc moves them with
// the widest access the alignment allows (one LDS.128/STS.128 for 4 floats, measured
// on the H200), and so does this.
#pragma once
#include "cub/util_type.cuh"
#include "simt_cuda/vector_access.h"

namespace cub {

template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, bool WARP_TIME_SLICING = false, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockExchange {
  static_assert(!WARP_TIME_SLICING, "simtlab's cub::BlockExchange does not implement warp time-slicing yet");
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int WARP_THREADS = detail::warp_threads;
  static constexpr int WARP_ITEMS = (BLOCK_THREADS < WARP_THREADS ? BLOCK_THREADS : WARP_THREADS) * ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr bool INSERT_PADDING = ITEMS_PER_THREAD > 4 && detail::is_pow2_v<ITEMS_PER_THREAD>;
  static constexpr int PADDING_ITEMS = INSERT_PADDING ? (TILE_ITEMS >> detail::log2_smem_banks) : 0;

  struct alignas(16) _TempStorage {
    T buff[TILE_ITEMS + PADDING_ITEMS];
  };

 public:
  using TempStorage = Uninitialized<_TempStorage>;

  __device__ __forceinline__ explicit BlockExchange(TempStorage& s)
      : buff_(s.Alias().buff), linear_tid_(detail::row_major_tid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z)) {
    lane_ = detail::lane_id();
    const int warp = BLOCK_THREADS <= WARP_THREADS ? 0 : linear_tid_ / WARP_THREADS;
    warp_offset_ = warp * WARP_ITEMS;
  }

  template <class U> __device__ __forceinline__ void StripedToBlocked(const T (&in)[ITEMS_PER_THREAD], U (&out)[ITEMS_PER_THREAD]) {
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) buff_[pad(i * BLOCK_THREADS + linear_tid_)] = in[i];
    __syncthreads();
    load_blocked(linear_tid_ * ITEMS_PER_THREAD, out);
  }
  template <class U> __device__ __forceinline__ void BlockedToStriped(const T (&in)[ITEMS_PER_THREAD], U (&out)[ITEMS_PER_THREAD]) {
    store_blocked(linear_tid_ * ITEMS_PER_THREAD, in);
    __syncthreads();
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) out[i] = buff_[pad(i * BLOCK_THREADS + linear_tid_)];
  }
  template <class U> __device__ __forceinline__ void WarpStripedToBlocked(const T (&in)[ITEMS_PER_THREAD], U (&out)[ITEMS_PER_THREAD]) {
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) buff_[pad(warp_offset_ + i * WARP_THREADS + lane_)] = in[i];
    __syncwarp(0xffffffffu);
    load_blocked(warp_offset_ + lane_ * ITEMS_PER_THREAD, out);
  }
  template <class U> __device__ __forceinline__ void BlockedToWarpStriped(const T (&in)[ITEMS_PER_THREAD], U (&out)[ITEMS_PER_THREAD]) {
    store_blocked(warp_offset_ + lane_ * ITEMS_PER_THREAD, in);
    __syncwarp(0xffffffffu);
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) out[i] = buff_[pad(warp_offset_ + i * WARP_THREADS + lane_)];
  }
  // In place: CUB's single-array overloads.
  __device__ __forceinline__ void StripedToBlocked(T (&items)[ITEMS_PER_THREAD]) { StripedToBlocked(items, items); }
  __device__ __forceinline__ void BlockedToStriped(T (&items)[ITEMS_PER_THREAD]) { BlockedToStriped(items, items); }
  __device__ __forceinline__ void WarpStripedToBlocked(T (&items)[ITEMS_PER_THREAD]) { WarpStripedToBlocked(items, items); }
  __device__ __forceinline__ void BlockedToWarpStriped(T (&items)[ITEMS_PER_THREAD]) { BlockedToWarpStriped(items, items); }

 private:
  // The widest access that a thread's run of blocked items is statically aligned
  // to: the gcd of its size and 16 (4 floats: 16 bytes), if the run is unpadded.
  static constexpr unsigned RUN_BYTES = unsigned(sizeof(T)) * ITEMS_PER_THREAD;
  static constexpr unsigned CHUNK = INSERT_PADDING ? 0 : (RUN_BYTES % 16 == 0 ? 16 : RUN_BYTES % 8 == 0 ? 8 : 0);
  template <class U> __device__ __forceinline__ void load_blocked(int first, U (&out)[ITEMS_PER_THREAD]) {
    if constexpr (CHUNK != 0 && std::is_same_v<U, T>) {
      for (unsigned b = 0; b < RUN_BYTES; b += CHUNK)
        simt::cuda::vector_load<CHUNK>(reinterpret_cast<char*>(out) + b, reinterpret_cast<const char*>(buff_ + first) + b);
    } else {
      for (int i = 0; i < ITEMS_PER_THREAD; ++i) out[i] = buff_[pad(first + i)];
    }
  }
  __device__ __forceinline__ void store_blocked(int first, const T (&in)[ITEMS_PER_THREAD]) {
    if constexpr (CHUNK != 0) {
      for (unsigned b = 0; b < RUN_BYTES; b += CHUNK)
        simt::cuda::vector_store<CHUNK>(reinterpret_cast<char*>(buff_ + first) + b, reinterpret_cast<const char*>(in) + b);
    } else {
      for (int i = 0; i < ITEMS_PER_THREAD; ++i) buff_[pad(first + i)] = in[i];
    }
  }
  static __device__ __forceinline__ int pad(int offset) {
    return INSERT_PADDING ? offset + (offset >> detail::log2_smem_banks) : offset;
  }

  T* buff_;
  int linear_tid_, lane_, warp_offset_;
};

}  // namespace cub
