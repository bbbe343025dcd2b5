// Global memory: the 32-byte sectors one warp instruction touches
// (l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum).
#pragma once
#include "sim/memory/warp_access.hpp"

#include <cstdint>

namespace simt {

// Distinct 32-byte sectors touched by the active lanes (as address / 32, sorted
// into `out`, which holds 64), and their number.
std::uint32_t distinct_sectors(const WarpAccess& a, std::uint64_t* out);
std::uint32_t count_sectors(const WarpAccess& a);

}  // namespace simt
