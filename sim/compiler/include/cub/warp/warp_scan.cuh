// cub::WarpScan: CUB's shuffle scan (WarpScanShfl), in its order. Step k shuffles
// up by 2^k and lanes at or above the offset combine op(received, own) — the
// predicated add of CUB's PTX. The exclusive result is the inclusive one shuffled
// up by one lane (CUB's Update for non-integer types; for integer sums CUB
// subtracts the input instead: the same value).
#pragma once
#include "cub/util_type.cuh"

namespace cub {

template <class T, int LOGICAL_WARP_THREADS = 32> class WarpScan {
  static_assert(detail::is_pow2_v<LOGICAL_WARP_THREADS> && LOGICAL_WARP_THREADS <= 32,
                "simtlab's cub::WarpScan supports power-of-two logical warps of up to 32 threads");
  static constexpr int STEPS = detail::log2_v<LOGICAL_WARP_THREADS>;
  static constexpr bool IS_ARCH_WARP = LOGICAL_WARP_THREADS == 32;

 public:
  struct TempStorage {};

  __device__ __forceinline__ explicit WarpScan(TempStorage&) {
    const int lane = detail::lane_id();
    lane_ = IS_ARCH_WARP ? lane : lane % LOGICAL_WARP_THREADS;
    const int warp = IS_ARCH_WARP ? 0 : lane / LOGICAL_WARP_THREADS;
    member_mask_ = IS_ARCH_WARP ? 0xffffffffu : (((1u << LOGICAL_WARP_THREADS) - 1u) << (warp * LOGICAL_WARP_THREADS));
  }

  __device__ __forceinline__ void InclusiveSum(T input, T& inclusive) { InclusiveScan(input, inclusive, ::cuda::std::plus<>{}); }
  __device__ __forceinline__ void InclusiveSum(T input, T& inclusive, T& warp_aggregate) {
    InclusiveScan(input, inclusive, ::cuda::std::plus<>{}, warp_aggregate);
  }
  __device__ __forceinline__ void ExclusiveSum(T input, T& exclusive) { ExclusiveScan(input, exclusive, T{}, ::cuda::std::plus<>{}); }
  __device__ __forceinline__ void ExclusiveSum(T input, T& exclusive, T& warp_aggregate) {
    ExclusiveScan(input, exclusive, T{}, ::cuda::std::plus<>{}, warp_aggregate);
  }

  // CUB assigns the output before the steps and after each one; nvcc keeps the
  // value in a register but performs every assignment (its shuffles are volatile
  // asm): an output in device memory is stored 1 + log2(width) times and never
  // re-read (H200: 6 STG per thread for a warp of 32).
  template <class Op> __device__ __forceinline__ void InclusiveScan(T input, T& inclusive, Op op) {
    T acc = input;
    inclusive = acc;
    for (int step = 0; step < STEPS; ++step) {
      const int offset = 1 << step;
      const T received = detail::shuffle<detail::shfl_kind::up>(member_mask_, acc, offset, LOGICAL_WARP_THREADS);
      if (lane_ >= offset) acc = op(received, acc);
      inclusive = acc;
    }
  }
  template <class Op> __device__ __forceinline__ void InclusiveScan(T input, T& inclusive, Op op, T& warp_aggregate) {
    InclusiveScan(input, inclusive, op);
    warp_aggregate = Broadcast(inclusive, LOGICAL_WARP_THREADS - 1);
  }
  // Without an initial value lane 0's exclusive output is undefined in CUB (it is
  // its own inclusive value there and here).
  template <class Op> __device__ __forceinline__ void ExclusiveScan(T input, T& exclusive, Op op) {
    T inclusive;
    InclusiveScan(input, inclusive, op);
    exclusive = detail::shuffle<detail::shfl_kind::up>(member_mask_, inclusive, 1, LOGICAL_WARP_THREADS);
  }
  template <class Op> __device__ __forceinline__ void ExclusiveScan(T input, T& exclusive, T initial_value, Op op) {
    T aggregate;
    ExclusiveScan(input, exclusive, initial_value, op, aggregate, false);
  }
  template <class Op>
  __device__ __forceinline__ void ExclusiveScan(T input, T& exclusive, T initial_value, Op op, T& warp_aggregate) {
    ExclusiveScan(input, exclusive, initial_value, op, warp_aggregate, true);
  }
  // Both results at once (CUB's Scan: used by BlockScan).
  template <class Op> __device__ __forceinline__ void Scan(T input, T& inclusive, T& exclusive, Op op) {
    InclusiveScan(input, inclusive, op);
    exclusive = detail::shuffle<detail::shfl_kind::up>(member_mask_, inclusive, 1, LOGICAL_WARP_THREADS);
  }
  __device__ __forceinline__ T Broadcast(T input, int src_lane) {
    return detail::shuffle<detail::shfl_kind::idx>(member_mask_, input, src_lane, LOGICAL_WARP_THREADS);
  }

 private:
  template <class Op>
  __device__ __forceinline__ void ExclusiveScan(T input, T& exclusive, T initial_value, Op op, T& warp_aggregate,
                                                bool want_aggregate) {
    T inclusive;
    InclusiveScan(input, inclusive, op);
    if (want_aggregate) warp_aggregate = Broadcast(inclusive, LOGICAL_WARP_THREADS - 1);
    inclusive = op(initial_value, inclusive);
    exclusive = detail::shuffle<detail::shfl_kind::up>(member_mask_, inclusive, 1, LOGICAL_WARP_THREADS);
    if (lane_ == 0) exclusive = initial_value;
  }

  int lane_;
  unsigned member_mask_;
};

}  // namespace cub
