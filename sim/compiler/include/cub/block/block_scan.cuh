// cub::BlockScan with CUDA 13's algorithms and combining orders:
//  - BLOCK_SCAN_RAKING (CUB's default) and RAKING_MEMOIZE: every thread places its
//    input in the raking grid (cub::BlockRakingLayout); __syncthreads(); the first
//    warp rakes its segment left to right (upsweep), scans the 32 partials with a
//    shuffle scan (cub::WarpScan), and writes its segment's scan back (downsweep:
//    RAKING re-reads the segment from shared memory, MEMOIZE keeps it in
//    registers); __syncthreads(); every thread reads its result.
//  - BLOCK_SCAN_WARP_SCANS: each warp scans by shuffles; the last lane of each warp
//    stores the warp's total; __syncthreads(); every thread folds the totals left to
//    right, keeping the running value at its own warp as its warp's prefix. CUB
//    turns WARP_SCANS on a block that is not a multiple of 32 into RAKING.
#pragma once
#include "cub/block/block_raking_layout.cuh"
#include "cub/thread/thread_reduce.cuh"
#include "cub/warp/warp_scan.cuh"

namespace cub {

enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };

namespace detail {

template <class T, int BLOCK_THREADS> class BlockScanWarpScans {
  static constexpr int WARPS = (BLOCK_THREADS + warp_threads - 1) / warp_threads;
  using WarpScanT = WarpScan<T, warp_threads>;

 public:
  struct alignas(32) _TempStorage {
    T warp_aggregates[WARPS];
    typename WarpScanT::TempStorage warp_scan[WARPS];
    T block_prefix;
  };
  struct TempStorage : Uninitialized<_TempStorage> {};

  __device__ __forceinline__ BlockScanWarpScans(TempStorage& s, int tid)
      : storage_(s.Alias()), warp_id_(WARPS == 1 ? 0 : tid / warp_threads), lane_(lane_id()) {}

  template <class Op> __device__ __forceinline__ void InclusiveScan(T input, T& output, Op op, T& block_aggregate) {
    WarpScanT(storage_.warp_scan[warp_id_]).InclusiveScan(input, output, op);
    T warp_prefix = warp_prefix_of(op, output, block_aggregate);
    if (warp_id_ != 0) output = op(warp_prefix, output);
  }
  template <class Op> __device__ __forceinline__ void InclusiveScan(T input, T& output, Op op) {
    T aggregate;
    InclusiveScan(input, output, op, aggregate);
  }
  template <class Op>
  __device__ __forceinline__ void ExclusiveScan(T input, T& output, T initial_value, Op op, T& block_aggregate) {
    T inclusive;
    WarpScanT(storage_.warp_scan[warp_id_]).Scan(input, inclusive, output, op);
    T warp_prefix = warp_prefix_of(op, inclusive, block_aggregate);
    warp_prefix = op(initial_value, warp_prefix);
    if (warp_id_ == 0) warp_prefix = initial_value;
    output = op(warp_prefix, output);
    if (lane_ == 0) output = warp_prefix;
  }
  template <class Op> __device__ __forceinline__ void ExclusiveScan(T input, T& output, T initial_value, Op op) {
    T aggregate;
    ExclusiveScan(input, output, initial_value, op, aggregate);
  }
  // Without an initial value: thread 0's output is undefined (CUB leaves it so).
  template <class Op> __device__ __forceinline__ void ExclusiveScan(T input, T& output, Op op, T& block_aggregate) {
    T inclusive;
    WarpScanT(storage_.warp_scan[warp_id_]).Scan(input, inclusive, output, op);
    T warp_prefix = warp_prefix_of(op, inclusive, block_aggregate);
    if (warp_id_ != 0) {
      output = op(warp_prefix, output);
      if (lane_ == 0) output = warp_prefix;
    }
  }
  // With a prefix callback (CUB's BlockPrefixCallbackOp): warp 0 calls it with the
  // block aggregate; lane 0's return value is the block's prefix, shared with all.
  template <class Op, class Callback>
  __device__ __forceinline__ void ExclusiveScanWithPrefix(T input, T& output, Op op, Callback& callback) {
    T block_aggregate;
    ExclusiveScan(input, output, op, block_aggregate);
    if (warp_id_ == 0) {
      T block_prefix = callback(block_aggregate);
      if (lane_ == 0) {
        storage_.block_prefix = block_prefix;
        output = block_prefix;
      }
    }
    __syncthreads();
    T block_prefix = storage_.block_prefix;
    if (warp_id_ != 0 || lane_ != 0) output = op(block_prefix, output);
  }
  template <class Op, class Callback>
  __device__ __forceinline__ void InclusiveScanWithPrefix(T input, T& output, Op op, Callback& callback) {
    T block_aggregate;
    InclusiveScan(input, output, op, block_aggregate);
    if (warp_id_ == 0) {
      T block_prefix = callback(block_aggregate);
      if (lane_ == 0) storage_.block_prefix = block_prefix;
    }
    __syncthreads();
    output = op(storage_.block_prefix, output);
  }

 private:
  // CUB's ComputeWarpPrefix: every thread reads every warp total.
  template <class Op> __device__ __forceinline__ T warp_prefix_of(Op op, T warp_inclusive, T& block_aggregate) {
    if (lane_ == warp_threads - 1) storage_.warp_aggregates[warp_id_] = warp_inclusive;
    __syncthreads();
    T warp_prefix{};
    block_aggregate = storage_.warp_aggregates[0];
    for (int w = 1; w < WARPS; ++w) {
      if (warp_id_ == w) warp_prefix = block_aggregate;
      block_aggregate = op(block_aggregate, storage_.warp_aggregates[w]);
    }
    return warp_prefix;
  }

  _TempStorage& storage_;
  int warp_id_, lane_;
};

template <class T, int BLOCK_THREADS, bool MEMOIZE> class BlockScanRaking {
  using Layout = BlockRakingLayout<T, BLOCK_THREADS>;
  static constexpr int RAKING_THREADS = Layout::RAKING_THREADS;
  static constexpr int SEGMENT_LENGTH = Layout::SEGMENT_LENGTH;
  static constexpr bool WARP_SYNCHRONOUS = BLOCK_THREADS == RAKING_THREADS;
  using WarpScanT = WarpScan<T, RAKING_THREADS>;

 public:
  struct _TempStorage {
    typename WarpScanT::TempStorage warp_scan;
    typename Layout::TempStorage raking_grid;
    T block_aggregate;
  };
  struct TempStorage : Uninitialized<_TempStorage> {};

  __device__ __forceinline__ BlockScanRaking(TempStorage& s, int tid) : storage_(s.Alias()), tid_(tid) {}

  template <class Op> __device__ __forceinline__ void InclusiveScan(T input, T& output, Op op) {
    if (WARP_SYNCHRONOUS) return WarpScanT(storage_.warp_scan).InclusiveScan(input, output, op);
    T* placement = place(input);
    if (tid_ < RAKING_THREADS) {
      T exclusive_partial;
      WarpScanT(storage_.warp_scan).ExclusiveScan(upsweep(op), exclusive_partial, op);
      downsweep(op, exclusive_partial, tid_ != 0, true);
    }
    __syncthreads();
    output = *placement;
  }
  template <class Op> __device__ __forceinline__ void InclusiveScan(T input, T& output, Op op, T& block_aggregate) {
    if (WARP_SYNCHRONOUS) return WarpScanT(storage_.warp_scan).InclusiveScan(input, output, op, block_aggregate);
    T* placement = place(input);
    if (tid_ < RAKING_THREADS) {
      T inclusive_partial, exclusive_partial;
      WarpScanT(storage_.warp_scan).Scan(upsweep(op), inclusive_partial, exclusive_partial, op);
      downsweep(op, exclusive_partial, tid_ != 0, true);
      if (tid_ == RAKING_THREADS - 1) storage_.block_aggregate = inclusive_partial;
    }
    __syncthreads();
    output = *placement;
    block_aggregate = storage_.block_aggregate;
  }
  template <class Op> __device__ __forceinline__ void ExclusiveScan(T input, T& output, T initial_value, Op op) {
    if (WARP_SYNCHRONOUS) return WarpScanT(storage_.warp_scan).ExclusiveScan(input, output, initial_value, op);
    T* placement = place(input);
    if (tid_ < RAKING_THREADS) {
      T exclusive_partial;
      WarpScanT(storage_.warp_scan).ExclusiveScan(upsweep(op), exclusive_partial, initial_value, op);
      downsweep(op, exclusive_partial, true, false);
    }
    __syncthreads();
    output = *placement;
  }
  template <class Op>
  __device__ __forceinline__ void ExclusiveScan(T input, T& output, T initial_value, Op op, T& block_aggregate) {
    if (WARP_SYNCHRONOUS)
      return WarpScanT(storage_.warp_scan).ExclusiveScan(input, output, initial_value, op, block_aggregate);
    T* placement = place(input);
    if (tid_ < RAKING_THREADS) {
      T exclusive_partial;
      WarpScanT(storage_.warp_scan).ExclusiveScan(upsweep(op), exclusive_partial, initial_value, op, block_aggregate);
      downsweep(op, exclusive_partial, true, false);
      if (tid_ == 0) storage_.block_aggregate = block_aggregate;
    }
    __syncthreads();
    output = *placement;
    block_aggregate = storage_.block_aggregate;
  }

 private:
  __device__ __forceinline__ T* place(T input) {
    T* placement = Layout::PlacementPtr(storage_.raking_grid, unsigned(tid_));
    *placement = input;
    __syncthreads();
    return placement;
  }
  // CUB's Upsweep: the segment into registers, reduced left to right.
  template <class Op> __device__ __forceinline__ T upsweep(Op op) {
    const T* segment = Layout::RakingPtr(storage_.raking_grid, unsigned(tid_));
    for (int i = 0; i < SEGMENT_LENGTH; ++i) cached_[i] = segment[i];
    T partial = cached_[0];
    for (int i = 1; i < SEGMENT_LENGTH; ++i)
      if (Layout::UNGUARDED || tid_ * SEGMENT_LENGTH + i < BLOCK_THREADS) partial = op(partial, cached_[i]);
    return partial;
  }
  // CUB's Exclusive/InclusiveDownsweep: the segment scanned from the prefix, back
  // to shared memory. RAKING re-reads the segment in CUB's source; nvcc keeps the
  // upsweep's registers instead (nothing wrote shared memory in between: H200 SASS
  // has one set of LDS), so both variants use the cached segment here.
  template <class Op> __device__ __forceinline__ void downsweep(Op op, T prefix, bool apply_prefix, bool inclusive) {
    T* segment = Layout::RakingPtr(storage_.raking_grid, unsigned(tid_));
    if (inclusive) internal::ThreadScanInclusive(cached_, cached_, op, prefix, apply_prefix);
    else internal::ThreadScanExclusive(cached_, cached_, op, prefix, apply_prefix);
    for (int i = 0; i < SEGMENT_LENGTH; ++i) segment[i] = cached_[i];
  }

  _TempStorage& storage_;
  int tid_;
  T cached_[SEGMENT_LENGTH];
};

}  // namespace detail

template <class T, int BLOCK_DIM_X, BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_RAKING, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockScan {
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr BlockScanAlgorithm SAFE_ALGORITHM =
      (ALGORITHM == BLOCK_SCAN_WARP_SCANS && BLOCK_THREADS % detail::warp_threads != 0) ? BLOCK_SCAN_RAKING : ALGORITHM;
  using Internal = std::conditional_t<SAFE_ALGORITHM == BLOCK_SCAN_WARP_SCANS,
                                      detail::BlockScanWarpScans<T, BLOCK_THREADS>,
                                      detail::BlockScanRaking<T, BLOCK_THREADS, SAFE_ALGORITHM == BLOCK_SCAN_RAKING_MEMOIZE>>;

 public:
  struct TempStorage : Internal::TempStorage {};

  __device__ __forceinline__ explicit BlockScan(TempStorage& s)
      : storage_(s), linear_tid_(detail::row_major_tid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z)) {}

  // Sums.
  __device__ __forceinline__ void InclusiveSum(T input, T& output) { InclusiveScan(input, output, ::cuda::std::plus<>{}); }
  __device__ __forceinline__ void InclusiveSum(T input, T& output, T& block_aggregate) {
    InclusiveScan(input, output, ::cuda::std::plus<>{}, block_aggregate);
  }
  __device__ __forceinline__ void ExclusiveSum(T input, T& output) { ExclusiveScan(input, output, T{}, ::cuda::std::plus<>{}); }
  __device__ __forceinline__ void ExclusiveSum(T input, T& output, T& block_aggregate) {
    ExclusiveScan(input, output, T{}, ::cuda::std::plus<>{}, block_aggregate);
  }
  template <int N> __device__ __forceinline__ void InclusiveSum(T (&in)[N], T (&out)[N]) {
    if constexpr (N == 1) {
      InclusiveSum(in[0], out[0]);
    } else {
      T prefix = ThreadReduce(in, ::cuda::std::plus<>{});
      ExclusiveSum(prefix, prefix);
      internal::ThreadScanInclusive(in, out, ::cuda::std::plus<>{}, prefix, linear_tid_ != 0);
    }
  }
  template <int N> __device__ __forceinline__ void ExclusiveSum(T (&in)[N], T (&out)[N]) {
    T prefix = ThreadReduce(in, ::cuda::std::plus<>{});
    ExclusiveScan(prefix, prefix, T{}, ::cuda::std::plus<>{});
    internal::ThreadScanExclusive(in, out, ::cuda::std::plus<>{}, prefix);
  }

  // Scans with any operator; exclusive scans take CUB's initial value (thread 0's output).
  template <class Op> __device__ __forceinline__ void InclusiveScan(T input, T& output, Op op) {
    Internal(storage_, linear_tid_).InclusiveScan(input, output, op);
  }
  template <class Op> __device__ __forceinline__ void InclusiveScan(T input, T& output, Op op, T& block_aggregate) {
    Internal(storage_, linear_tid_).InclusiveScan(input, output, op, block_aggregate);
  }
  template <class Op> __device__ __forceinline__ void ExclusiveScan(T input, T& output, T initial_value, Op op) {
    Internal(storage_, linear_tid_).ExclusiveScan(input, output, initial_value, op);
  }
  template <class Op>
  __device__ __forceinline__ void ExclusiveScan(T input, T& output, T initial_value, Op op, T& block_aggregate) {
    Internal(storage_, linear_tid_).ExclusiveScan(input, output, initial_value, op, block_aggregate);
  }

  // CUB's undocumented scan without an initial value: thread 0's output is undefined.
  template <class Op> __device__ __forceinline__ void ExclusiveScan(T input, T& output, Op op, T& block_aggregate) {
    Internal(storage_, linear_tid_).ExclusiveScan(input, output, op, block_aggregate);
  }

  // Arrays of items per thread (CUB's forms): each thread's items reduced with
  // ThreadReduce, one block-wide scan of those partials, then each thread scans its
  // own items from its prefix, left to right. BLOCK_SCAN_WARP_SCANS only for the
  // forms without an initial value and with a prefix callback.
  template <int N, class Op> __device__ __forceinline__ void InclusiveScan(T (&in)[N], T (&out)[N], Op op) {
    T aggregate;
    InclusiveScan(in, out, op, aggregate);
  }
  template <int N, class Op>
  __device__ __forceinline__ void InclusiveScan(T (&in)[N], T (&out)[N], Op op, T& block_aggregate) {
    if constexpr (N == 1) {
      InclusiveScan(in[0], out[0], op, block_aggregate);
    } else {
      T prefix = ThreadReduce(in, op);
      Internal(storage_, linear_tid_).ExclusiveScan(prefix, prefix, op, block_aggregate);
      internal::ThreadScanInclusive(in, out, op, prefix, linear_tid_ != 0);
    }
  }
  template <int N, class Op>
  __device__ __forceinline__ void ExclusiveScan(T (&in)[N], T (&out)[N], T initial_value, Op op, T& block_aggregate) {
    T prefix = ThreadReduce(in, op);
    ExclusiveScan(prefix, prefix, initial_value, op, block_aggregate);
    internal::ThreadScanExclusive(in, out, op, prefix);
  }
  template <int N, class Op> __device__ __forceinline__ void ExclusiveScan(T (&in)[N], T (&out)[N], T initial_value, Op op) {
    T aggregate;
    ExclusiveScan(in, out, initial_value, op, aggregate);
  }
  template <int N, class Op, class Callback>
  __device__ __forceinline__ void InclusiveScan(T (&in)[N], T (&out)[N], Op op, Callback& callback) {
    T prefix = ThreadReduce(in, op);
    Internal(storage_, linear_tid_).ExclusiveScanWithPrefix(prefix, prefix, op, callback);
    internal::ThreadScanInclusive(in, out, op, prefix);
  }
  template <int N, class Op, class Callback>
  __device__ __forceinline__ void ExclusiveScan(T (&in)[N], T (&out)[N], Op op, Callback& callback) {
    T prefix = ThreadReduce(in, op);
    Internal(storage_, linear_tid_).ExclusiveScanWithPrefix(prefix, prefix, op, callback);
    internal::ThreadScanExclusive(in, out, op, prefix);
  }

 private:
  typename Internal::TempStorage& storage_;
  int linear_tid_;
};

}  // namespace cub
