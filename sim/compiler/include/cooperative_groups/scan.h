// simtlab's <cooperative_groups/scan.h>: cg::inclusive_scan and cg::exclusive_scan
// over a thread_block_tile<N> or a coalesced_group, with the shuffles CUDA 13's
// implementation makes, in its order (so the warp collectives counted match, and a
// float scan's rounding too):
// - a tile, and a coalesced group of 32: log2(size) steps of shfl_up by 1, 2, 4 ...,
//   each rank at or above the distance combining out = op(out, received);
// - a coalesced group of fewer lanes: the same steps, each rank receiving from the
//   rank `distance` below it by a shuffle over the group's mask.
// Exclusive scan: for cg::plus of an integral type the inclusive result minus the
// thread's own value (rank 0: T{}, 0); for any other operation the inclusive result
// shifted up one rank, rank 0 getting T{}, as CUDA documents. Like reduce.h, this
// header's operations are counted as the kernel's own (docs/frontend.md).
#pragma once
#include "cooperative_groups/reduce.h"

#include <type_traits>

namespace cooperative_groups {

namespace details {
template <class G, class T, class Op> inline T scan_contiguous(const G& g, T out, Op& op) {
  for (unsigned d = 1; d < g.size(); d <<= 1) {
    T tmp = g.shfl_up(out, d);
    if (d <= g.thread_rank()) out = op(out, tmp);
  }
  return out;
}
template <class T, class Op> inline T scan_non_contiguous(const coalesced_group& g, T out, Op& op) {
  const unsigned mask = g.build_mask(), rank = g.thread_rank(), size = g.size();
  for (unsigned i = 1; i < size; i <<= 1) {
    const unsigned src = i <= rank ? nth_lane(mask, rank - i) : lane();
    T tmp = __shfl_sync(mask, out, int(src), 32);
    if (i <= rank) out = op(out, tmp);
  }
  return out;
}
template <unsigned N, class P, class T, class Op>
inline T inclusive(const thread_block_tile<N, P>& g, T v, Op& op) {
  return scan_contiguous(g, v, op);
}
template <class T, class Op> inline T inclusive(const coalesced_group& g, T v, Op& op) {
  return g.size() == 32 ? scan_contiguous(g, v, op) : scan_non_contiguous(g, v, op);
}
template <class T, class Op> inline constexpr bool integral_plus =
    std::is_integral_v<T> && std::is_same_v<std::remove_cv_t<std::remove_reference_t<Op>>, cooperative_groups::plus<T>>;
template <class G, class T, class Op> inline T to_exclusive(const G& g, T inclusive_result, T v) {
  if constexpr (integral_plus<T, Op>) {
    return inclusive_result - v;
  } else {
    T up = g.shfl_up(inclusive_result, 1);
    if (g.thread_rank() == 0) return T{};
    return up;
  }
}
template <class G> struct scan_group : std::false_type {};
template <unsigned N, class P> struct scan_group<thread_block_tile<N, P>> : std::true_type {};
template <> struct scan_group<coalesced_group> : std::true_type {};
}  // namespace details

template <class Group, class T, class Op>
inline auto inclusive_scan(const Group& g, T&& val, Op&& op) -> std::decay_t<decltype(op(val, val))> {
  static_assert(details::scan_group<Group>::value, "cg::inclusive_scan: a thread_block_tile or coalesced_group");
  using R = std::decay_t<decltype(op(val, val))>;
  return details::inclusive(g, R(val), op);
}
template <class Group, class T> inline std::decay_t<T> inclusive_scan(const Group& g, T&& val) {
  return inclusive_scan(g, std::forward<T>(val), cooperative_groups::plus<std::decay_t<T>>());
}
template <class Group, class T, class Op>
inline auto exclusive_scan(const Group& g, T&& val, Op&& op) -> std::decay_t<decltype(op(val, val))> {
  static_assert(details::scan_group<Group>::value, "cg::exclusive_scan: a thread_block_tile or coalesced_group");
  using R = std::decay_t<decltype(op(val, val))>;
  const R v = val;
  const R in = details::inclusive(g, v, op);
  return details::to_exclusive<Group, R, Op>(g, in, v);
}
template <class Group, class T> inline std::decay_t<T> exclusive_scan(const Group& g, T&& val) {
  return exclusive_scan(g, std::forward<T>(val), cooperative_groups::plus<std::decay_t<T>>());
}

}  // namespace cooperative_groups
