// cub::BlockScan, BLOCK_SCAN_WARP_SCANS (CUB's default) with CUDA 13's order: each
// warp scans by shuffles (cub::WarpScan); the last lane of each warp stores the
// warp's total to shared memory; one __syncthreads(); every thread folds the warp
// totals left to right, keeping the running value at its own warp as its warp's
// prefix; warps other than 0 combine op(prefix, own scan). The raking variants
// (and WARP_SCANS on blocks that are not a multiple of 32, which CUB turns into
// RAKING) are refused at compile time: not written yet.
#pragma once
#include "cub/thread/thread_reduce.cuh"
#include "cub/warp/warp_scan.cuh"

namespace cub {

enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };

template <class T, int BLOCK_DIM_X, BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_WARP_SCANS, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockScan {
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int WARPS = (BLOCK_THREADS + detail::warp_threads - 1) / detail::warp_threads;
  static_assert(ALGORITHM == BLOCK_SCAN_WARP_SCANS && BLOCK_THREADS % detail::warp_threads == 0,
                "simtlab's cub::BlockScan implements BLOCK_SCAN_WARP_SCANS on blocks of a multiple of 32 threads "
                "only (the raking scans are not written yet)");
  using WarpScanT = WarpScan<T, detail::warp_threads>;

  struct alignas(32) _TempStorage {
    T warp_aggregates[WARPS];
    typename WarpScanT::TempStorage warp_scan[WARPS];
    T block_prefix;
  };

 public:
  struct TempStorage : Uninitialized<_TempStorage> {};

  __device__ __forceinline__ explicit BlockScan(TempStorage& s)
      : storage_(s.Alias()),
        linear_tid_(detail::row_major_tid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z)),
        warp_id_(WARPS == 1 ? 0 : linear_tid_ / detail::warp_threads),
        lane_(detail::lane_id()) {}

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

  // Inclusive scans.
  template <class Op> __device__ __forceinline__ void InclusiveScan(T input, T& output, Op op) {
    T aggregate;
    InclusiveScan(input, output, op, aggregate);
  }
  template <class Op> __device__ __forceinline__ void InclusiveScan(T input, T& output, Op op, T& block_aggregate) {
    WarpScanT(storage_.warp_scan[warp_id_]).InclusiveScan(input, output, op);
    T warp_prefix = warp_prefix_of(op, output, block_aggregate);
    if (warp_id_ != 0) output = op(warp_prefix, output);
  }

  // Exclusive scans with an initial value (thread 0's output).
  template <class Op> __device__ __forceinline__ void ExclusiveScan(T input, T& output, T initial_value, Op op) {
    T aggregate;
    ExclusiveScan(input, output, initial_value, op, aggregate);
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

 private:
  // CUB's ComputeWarpPrefix: every thread reads every warp total.
  template <class Op> __device__ __forceinline__ T warp_prefix_of(Op op, T warp_inclusive, T& block_aggregate) {
    if (lane_ == detail::warp_threads - 1) storage_.warp_aggregates[warp_id_] = warp_inclusive;
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
  int linear_tid_, warp_id_, lane_;
};

}  // namespace cub
