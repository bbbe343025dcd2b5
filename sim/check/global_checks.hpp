// The checks on global memory that need no answer before the access proceeds:
// races within a launch (and, per row, the DRAM estimate of sim/count/dram_estimate).
// Bounds are checked at once (sim/exec/access.cpp). A convergent warp's accesses get
// these a whole row (one warp instruction) at a time when its interval ends, so
// the DRAM estimate is taken once per sector, not once per lane.
#pragma once
#include "sim/state/block.hpp"
#include "sim/memory/warp_access.hpp"

#include <cstdint>

namespace simt {


// One thread's global load or store against the launch's race shadow: another
// block's access to the same word, or this block's in the same barrier interval,
// with a write on either side. Throws KernelFault.
void check_global_race(BlockState& b, std::uint32_t thread, std::uintptr_t addr, unsigned size, MemOp op,
                       Site site);

// A convergent warp's row: with `races`, each lane's race check. Throws KernelFault.
void check_global_row(BlockState& b, unsigned warp, const WarpAccess& row, bool races);

}  // namespace simt
