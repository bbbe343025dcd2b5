// simtlab's <cooperative_groups/reduce.h>: cg::reduce and its operators, combining
// in the order CUDA 13's implementation does, so float results are bit-identical:
// - a thread_block_tile<N> (and a coalesced group of 32): a butterfly, masks
//   N/2, N/4 ... 1, each step out = op(out, shfl_xor(out, mask));
// - a coalesced group of fewer lanes: an inclusive scan over ranks (step i adds the
//   value of rank - i, out = op(out, that)), then the last rank's result broadcast.
// CUDA replaces the butterfly by one REDUX instruction for 32-bit integers on tiles
// of 16 or 32 (and coalesced groups): same result, but simtlab counts the butterfly's
// shuffles (docs/frontend.md).
#pragma once
#include "cooperative_groups.h"

namespace cooperative_groups {

template <class T> struct plus {
  T operator()(T a, T b) const { return a + b; }
};
// CUDA's operand order: with equal values (+0 and -0) the first argument wins.
template <class T> struct less {
  T operator()(T a, T b) const { return (b < a) ? b : a; }
};
template <class T> struct greater {
  T operator()(T a, T b) const { return (a < b) ? b : a; }
};
template <class T> struct bit_and {
  T operator()(T a, T b) const { return a & b; }
};
template <class T> struct bit_or {
  T operator()(T a, T b) const { return a | b; }
};
template <class T> struct bit_xor {
  T operator()(T a, T b) const { return a ^ b; }
};

namespace details {
template <class G, class T, class Op> inline T butterfly(const G& g, T out, Op op, unsigned n) {
  for (unsigned mask = n >> 1; mask > 0; mask >>= 1) out = op(out, g.shfl_xor(out, mask));
  return out;
}
}  // namespace details

template <unsigned N, class P, class T, class Op>
inline auto reduce(const thread_block_tile<N, P>& g, T&& val, Op&& op) -> std::decay_t<decltype(op(val, val))> {
  return details::butterfly(g, std::decay_t<T>(val), op, N);
}

// A tile of several warps: each warp's butterfly, then the warps' totals meet in
// shared memory, where the tile's first warp reduces them with a butterfly over a tile
// of N/32 lanes and leaves the result for every thread of the tile. Two barriers (the
// tile's sync), and the stores and loads of the exchange counted as the GPU makes them
// (CUDA keeps the scratch in shared memory too). For integers the result is CUDA's;
// the order across warps for floats is not yet compared with the H200.
template <unsigned N, class P, class T, class Op>
  requires(N > 32)
inline auto reduce(const thread_block_tile<N, P>& g, T&& val, Op&& op) -> std::decay_t<decltype(op(val, val))> {
  using R = std::decay_t<decltype(op(val, val))>;
  constexpr unsigned kWarps = N / 32;
  // 32 warp totals, then one result per tile (at most 16 tiles of 64 in a block).
  __shared__ R scratch[32 + 16];
  const unsigned warp = details::block_rank() / 32, tile = details::block_rank() / N;
  const unsigned first_warp = tile * kWarps;
  const R total = details::butterfly(thread_block_tile<32>(), R(val), op, 32);
  if (details::lane() == 0) scratch[warp] = total;
  g.sync();
  if (warp == first_warp && details::lane() < kWarps) {
    const R all = details::butterfly(thread_block_tile<kWarps>(), scratch[first_warp + details::lane()], op, kWarps);
    if (details::lane() == 0) scratch[32 + tile] = all;
  }
  g.sync();
  return scratch[32 + tile];
}

template <class T, class Op>
inline auto reduce(const coalesced_group& g, T&& val, Op&& op) -> std::decay_t<decltype(op(val, val))> {
  using R = std::decay_t<T>;
  const unsigned mask = g.build_mask();
  if (g.size() == 32) return details::butterfly(thread_block_tile<32>(), R(val), op, 32);
  R out = val;
  const unsigned rank = g.thread_rank();
  for (unsigned i = 1; i < g.size(); i <<= 1) {
    const unsigned src = i <= rank ? details::nth_lane(mask, rank - i) : details::lane();
    R tmp = __shfl_sync(mask, out, int(src), 32);
    if (i <= rank) out = op(out, tmp);
  }
  const unsigned last = 31u - unsigned(__builtin_clz(mask));
  return __shfl_sync(mask, out, int(last), 32);
}

}  // namespace cooperative_groups
