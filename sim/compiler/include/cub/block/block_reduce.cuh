// cub::BlockReduce with CUDA 13's algorithms and combining orders:
//  - BLOCK_REDUCE_WARP_REDUCTIONS (the default): each warp reduces by shuffles
//    (cub::WarpReduce), lane 0 of each warp stores its aggregate to shared memory,
//    one __syncthreads(), then thread 0 folds warps 1.. into warp 0's aggregate in
//    order: ((w0 + w1) + w2) + ...
//  - BLOCK_REDUCE_RAKING: every
//    thread places its partial in the raking grid, __syncthreads(), the first warp
//    rakes its segment left to right, then a shuffle reduction of the raking warp.
//  - BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY: see BlockReduceRakingCommutativeOnly.
// The result is valid in thread 0 only, as in CUB.
#pragma once
#include "cub/block/block_raking_layout.cuh"
#include "cub/thread/thread_reduce.cuh"
#include "cub/warp/warp_reduce.cuh"
#include "simt_cuda/vector_access.h"

namespace cub {

enum BlockReduceAlgorithm {
  BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY,
  BLOCK_REDUCE_RAKING,
  BLOCK_REDUCE_WARP_REDUCTIONS,
};

namespace detail {

template <class T, int BLOCK_THREADS> struct BlockReduceWarpReductions {
  static constexpr int WARPS = (BLOCK_THREADS + warp_threads - 1) / warp_threads;
  static constexpr int LOGICAL_WARP_SIZE = BLOCK_THREADS < warp_threads ? BLOCK_THREADS : warp_threads;
  static constexpr bool EVEN_WARP_MULTIPLE = BLOCK_THREADS % LOGICAL_WARP_SIZE == 0;
  using WarpReduceT = WarpReduce<T, LOGICAL_WARP_SIZE>;

  // CUB's layout: the (empty) warp storages, then the aggregates, then a prefix.
  struct _TempStorage {
    NullType warp_reduce[WARPS];
    T warp_aggregates[WARPS];
    T block_prefix;
  };
  struct TempStorage : Uninitialized<_TempStorage> {};

  _TempStorage& storage;
  int linear_tid, warp_id, lane;

  __device__ __forceinline__ BlockReduceWarpReductions(TempStorage& s, int tid)
      : storage(s.Alias()), linear_tid(tid), warp_id(WARPS == 1 ? 0 : tid / warp_threads), lane(lane_id()) {}

  template <bool FULL_TILE, class Op> __device__ __forceinline__ T Reduce(T input, int num_valid, Op op) {
    const int warp_offset = warp_id * LOGICAL_WARP_SIZE;
    const int warp_num_valid = ((FULL_TILE && EVEN_WARP_MULTIPLE) || (warp_offset + LOGICAL_WARP_SIZE <= num_valid))
                                   ? LOGICAL_WARP_SIZE
                                   : num_valid - warp_offset;
    NullType none;
    T warp_aggregate =
        WarpReduceT(none).template Reduce<(FULL_TILE && EVEN_WARP_MULTIPLE)>(input, warp_num_valid, op);
    return apply_warp_aggregates<FULL_TILE>(op, warp_aggregate, num_valid);
  }

  template <bool FULL_TILE, class Op>
  __device__ __forceinline__ T apply_warp_aggregates(Op op, T warp_aggregate, int num_valid) {
    if (lane == 0) store_words(&storage.warp_aggregates[warp_id], warp_aggregate);
    __syncthreads();
    if (linear_tid == 0 && WARPS > 1) {
      // nvcc reads the other warps' totals as one run of the widest aligned loads
      // (3 for 7 floats on the H200: LDS.32, LDS.128, LDS.64); then folds in order.
      // With a bound, only the warps that hold valid items are read.
      const int warps = FULL_TILE ? WARPS : (num_valid + LOGICAL_WARP_SIZE - 1) / LOGICAL_WARP_SIZE;
      T totals[WARPS > 1 ? WARPS - 1 : 1];
      if (warps > 1)
        simt::cuda::contiguous_load(totals, storage.warp_aggregates + 1, unsigned(sizeof(T)) * unsigned(warps - 1));
      for (int w = 1; w < WARPS; ++w)
        if (FULL_TILE || w * LOGICAL_WARP_SIZE < num_valid) warp_aggregate = op(warp_aggregate, totals[w - 1]);
    }
    return warp_aggregate;
  }
};

template <class T, int BLOCK_THREADS> struct BlockReduceRaking {
  using Layout = BlockRakingLayout<T, BLOCK_THREADS>;
  static constexpr int RAKING_THREADS = Layout::RAKING_THREADS;
  static constexpr int SEGMENT_LENGTH = Layout::SEGMENT_LENGTH;
  static constexpr bool WARP_SYNCHRONOUS = RAKING_THREADS == BLOCK_THREADS;
  using WarpReduceT = WarpReduce<T, RAKING_THREADS>;

  union _TempStorage {
    NullType warp_storage;
    typename Layout::TempStorage raking_grid;
  };
  struct TempStorage : Uninitialized<_TempStorage> {};

  _TempStorage& storage;
  int linear_tid;

  __device__ __forceinline__ BlockReduceRaking(TempStorage& s, int tid) : storage(s.Alias()), linear_tid(tid) {}

  template <bool FULL_TILE, class Op> __device__ __forceinline__ T Reduce(T partial, int num_valid, Op op) {
    NullType none;
    if (WARP_SYNCHRONOUS) return WarpReduceT(none).template Reduce<FULL_TILE>(partial, num_valid, op);
    *Layout::PlacementPtr(storage.raking_grid, unsigned(linear_tid)) = partial;
    __syncthreads();
    if (linear_tid < RAKING_THREADS) {
      T* segment = Layout::RakingPtr(storage.raking_grid, unsigned(linear_tid));
      partial = segment[0];
      for (int i = 1; i < SEGMENT_LENGTH; ++i)
        if ((FULL_TILE && Layout::UNGUARDED) || linear_tid * SEGMENT_LENGTH + i < num_valid) partial = op(partial, segment[i]);
      const int valid_raking_threads = FULL_TILE ? RAKING_THREADS : (num_valid + SEGMENT_LENGTH - 1) / SEGMENT_LENGTH;
      __syncwarp(unsigned((1ull << RAKING_THREADS) - 1));
      partial = WarpReduceT(none).template Reduce<(FULL_TILE && Layout::UNGUARDED)>(partial, valid_raking_threads, op);
    }
    return partial;
  }
};

// CUB's BlockReduceRakingCommutativeOnly: the threads past the first warp place
// their partials in a raking grid of BLOCK-32 items; each thread of the first warp
// reduces [own partial, its segment] with ThreadReduce (a tree for the libcu++
// operators), then the warp reduces by shuffles. Blocks that are not a multiple of
// 32 threads (or one warp), and bounded reductions, fall back to RAKING.
template <class T, int BLOCK_THREADS> struct BlockReduceRakingCommutativeOnly {
  static constexpr bool USE_FALLBACK = BLOCK_THREADS % warp_threads != 0 || BLOCK_THREADS <= warp_threads;
  static constexpr int SHARING_THREADS = BLOCK_THREADS - warp_threads > 1 ? BLOCK_THREADS - warp_threads : 1;
  static constexpr int SEGMENT_LENGTH = SHARING_THREADS / warp_threads;
  using Layout = BlockRakingLayout<T, SHARING_THREADS>;
  using FallBack = BlockReduceRaking<T, BLOCK_THREADS>;

  union _TempStorage {
    struct {
      NullType warp_storage;
      typename Layout::TempStorage raking_grid;
    } default_storage;
    typename FallBack::TempStorage fallback_storage;
  };
  struct TempStorage : Uninitialized<_TempStorage> {};

  _TempStorage& storage;
  int linear_tid;

  __device__ __forceinline__ BlockReduceRakingCommutativeOnly(TempStorage& s, int tid) : storage(s.Alias()), linear_tid(tid) {}

  template <bool FULL_TILE, class Op> __device__ __forceinline__ T Reduce(T partial, int num_valid, Op op) {
    if (USE_FALLBACK || !FULL_TILE)
      return FallBack(storage.fallback_storage, linear_tid).template Reduce<FULL_TILE>(partial, num_valid, op);
    if (linear_tid >= warp_threads)
      *Layout::PlacementPtr(storage.default_storage.raking_grid, unsigned(linear_tid - warp_threads)) = partial;
    __syncthreads();
    if (linear_tid < warp_threads) {
      const T* segment = Layout::RakingPtr(storage.default_storage.raking_grid, unsigned(linear_tid));
      T items[SEGMENT_LENGTH + 1];  // CUB's ThreadReduce with a prefix: [prefix, segment...]
      items[0] = partial;
      for (int i = 0; i < SEGMENT_LENGTH; ++i) items[i + 1] = segment[i];
      partial = ThreadReduce(items, op);
      NullType none;
      partial = WarpReduce<T, warp_threads>(none).Reduce(partial, op);
    }
    return partial;
  }
};

}  // namespace detail

template <class T, int BLOCK_DIM_X, BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockReduce {
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  using Internal = std::conditional_t<
      ALGORITHM == BLOCK_REDUCE_WARP_REDUCTIONS, detail::BlockReduceWarpReductions<T, BLOCK_THREADS>,
      std::conditional_t<ALGORITHM == BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY,
                         detail::BlockReduceRakingCommutativeOnly<T, BLOCK_THREADS>,
                         detail::BlockReduceRaking<T, BLOCK_THREADS>>>;
  using InternalStorage = typename Internal::TempStorage;

 public:
  struct TempStorage : InternalStorage {};

  __device__ __forceinline__ explicit BlockReduce(TempStorage& s)
      : storage_(s), linear_tid_(detail::row_major_tid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z)) {}

  template <class Op> __device__ __forceinline__ T Reduce(T input, Op op) {
    return Internal(storage_, linear_tid_).template Reduce<true>(input, BLOCK_THREADS, op);
  }
  template <int N, class Op> __device__ __forceinline__ T Reduce(T (&inputs)[N], Op op) {
    return Reduce(ThreadReduce(inputs, op), op);
  }
  template <class Op> __device__ __forceinline__ T Reduce(T input, Op op, int num_valid) {
    if (num_valid >= BLOCK_THREADS) return Internal(storage_, linear_tid_).template Reduce<true>(input, num_valid, op);
    return Internal(storage_, linear_tid_).template Reduce<false>(input, num_valid, op);
  }
  __device__ __forceinline__ T Sum(T input) { return Reduce(input, ::cuda::std::plus<>{}); }
  template <int N> __device__ __forceinline__ T Sum(T (&inputs)[N]) {
    return Sum(ThreadReduce(inputs, ::cuda::std::plus<>{}));
  }
  __device__ __forceinline__ T Sum(T input, int num_valid) { return Reduce(input, ::cuda::std::plus<>{}, num_valid); }

 private:
  InternalStorage& storage_;
  int linear_tid_;
};

}  // namespace cub
