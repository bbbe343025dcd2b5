// Turns the per-lane access logs of one warp into warp-level instructions and
// counts them the way the memory pipeline would: requests and 32-byte sectors for
// global memory, wavefronts and bank conflicts for shared memory.
#pragma once
#include "sim/counters.hpp"
#include "sim/events.hpp"
#include "sim/warp_access.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace simt {

// Lanes that executed the k-th dynamic instance of the same site form one
// instruction (SIMT reconvergence for structured code).
void group_warp_accesses(std::span<const std::vector<MemEvent>* const> lanes,
                         std::vector<WarpAccess>& out);

// Distinct 32-byte sectors touched by the active lanes.
std::uint32_t count_sectors(const WarpAccess& a);

struct SharedCost {
  std::uint32_t wavefronts;
  std::uint32_t ideal;
};
// Bank-conflict rule: 32 banks of 4 bytes; lanes reading the same word share it;
// 8- and 16-byte accesses are processed per half-warp.
SharedCost shared_wavefronts(const WarpAccess& a);

void count_access(const WarpAccess& a, Counters& c);

}  // namespace simt
