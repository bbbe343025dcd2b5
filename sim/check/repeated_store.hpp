// Lanes of one store instruction that write the same address: the hardware makes one
// write of it (llm.c stores a warp's sum from every lane into one shared word), so the
// race checks see it once, not as lanes racing with each other.
#pragma once
#include "sim/memory/warp_access.hpp"

namespace simt {

inline bool repeats_earlier_store(const WarpAccess& row, unsigned lane) {
  if (row.op != MemOp::Store) return false;
  for (std::uint32_t m = row.active & ((1u << lane) - 1); m; m &= m - 1)
    if (row.addr[__builtin_ctz(m)] == row.addr[lane]) return true;
  return false;
}

}  // namespace simt
