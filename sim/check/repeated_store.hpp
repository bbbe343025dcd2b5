// Lanes of one store instruction that write the same address: the hardware makes one
// write of it (llm.c stores a warp's sum from every lane into one shared word), so the
// race checks see it once, not as lanes racing with each other.
#pragma once
#include "sim/memory/warp_access.hpp"

namespace simt {

// Whether any two lanes of a store row write the same address. Most rows store to
// addresses that rise with the lane (a[i] = ...): settled in one pass, so the
// per-lane test below, quadratic in the lanes, runs only for the rest.
inline bool has_repeated_stores(const WarpAccess& row) {
  if (row.op != MemOp::Store) return false;
  std::uint64_t last = 0;
  bool first = true;
  for (std::uint32_t m = row.active; m; m &= m - 1) {
    const std::uint64_t a = row.addr[__builtin_ctz(m)];
    if (!first && a <= last) return true;  // maybe a repeat: the exact test decides
    last = a;
    first = false;
  }
  return false;
}

inline bool repeats_earlier_store(const WarpAccess& row, unsigned lane) {
  if (row.op != MemOp::Store) return false;
  for (std::uint32_t m = row.active & ((1u << lane) - 1); m; m &= m - 1)
    if (row.addr[__builtin_ctz(m)] == row.addr[lane]) return true;
  return false;
}

}  // namespace simt
