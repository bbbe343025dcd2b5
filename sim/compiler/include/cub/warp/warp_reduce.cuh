// cub::WarpReduce: CUB's shuffle reduction (WarpReduceShfl), in its order. Step k
// (offset 1, 2, 4, ... LOGICAL_WARP_THREADS/2) shuffles down by the offset and, in
// lanes whose source lane is valid (lane + offset <= last_lane), combines
// op(own, received) — CUB's predicated `@p add.f32`: only those lanes execute the
// FADD. Lane 0 of each logical warp holds the result.
#pragma once
#include "cub/util_type.cuh"

namespace cub {

template <class T, int LOGICAL_WARP_THREADS = 32> class WarpReduce {
  static_assert(detail::is_pow2_v<LOGICAL_WARP_THREADS> && LOGICAL_WARP_THREADS <= 32,
                "simtlab's cub::WarpReduce supports power-of-two logical warps of up to 32 threads");
  static constexpr int STEPS = detail::log2_v<LOGICAL_WARP_THREADS>;
  static constexpr bool IS_ARCH_WARP = LOGICAL_WARP_THREADS == 32;

 public:
  using TempStorage = NullType;  // shuffles need no shared memory

  __device__ __forceinline__ explicit WarpReduce(TempStorage&) {
    const int lane = detail::lane_id();
    logical_lane_ = IS_ARCH_WARP ? lane : lane % LOGICAL_WARP_THREADS;
    const int warp = IS_ARCH_WARP ? 0 : lane / LOGICAL_WARP_THREADS;
    member_mask_ = IS_ARCH_WARP ? 0xffffffffu : (((1u << LOGICAL_WARP_THREADS) - 1u) << (warp * LOGICAL_WARP_THREADS));
  }

  __device__ __forceinline__ T Sum(T input) { return Reduce(input, ::cuda::std::plus<>{}); }
  __device__ __forceinline__ T Sum(T input, int valid_items) { return Reduce(input, ::cuda::std::plus<>{}, valid_items); }
  template <class Op> __device__ __forceinline__ T Reduce(T input, Op op) {
    return reduce_steps(input, op, LOGICAL_WARP_THREADS - 1);
  }
  template <class Op> __device__ __forceinline__ T Reduce(T input, Op op, int valid_items) {
    return reduce_steps(input, op, valid_items - 1);
  }

  // Used by BlockReduce (CUB's InternalWarpReduce::Reduce<ALL_LANES_VALID>).
  template <bool ALL_LANES_VALID, class Op> __device__ __forceinline__ T Reduce(T input, int valid_items, Op op) {
    return reduce_steps(input, op, ALL_LANES_VALID ? LOGICAL_WARP_THREADS - 1 : valid_items - 1);
  }

 private:
  template <class Op> __device__ __forceinline__ T reduce_steps(T value, Op op, int last_lane) {
    for (int step = 0; step < STEPS; ++step) {
      const int offset = 1 << step;
      // Width LOGICAL_WARP_THREADS keeps the shuffle inside the logical warp; lanes
      // whose source is past last_lane keep their value (CUB's clamp + predicate).
      const T received = detail::shuffle<detail::shfl_kind::down>(member_mask_, value, offset, LOGICAL_WARP_THREADS);
      if (logical_lane_ + offset <= last_lane) value = op(value, received);
    }
    return value;
  }

  int logical_lane_;
  unsigned member_mask_;
};

}  // namespace cub
