// Turns the per-lane access logs of a divergent warp into warp-level instructions
// (a convergent warp's rows already are; sim/state/warp_log.hpp).
#pragma once
#include "sim/count/instruction_cost.hpp"
#include "sim/types/events.hpp"
#include "sim/memory/warp_access.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace simt {

// Lanes that executed the k-th dynamic instance of the same site form one
// instruction (SIMT reconvergence for structured code).
void group_warp_accesses(std::span<const std::vector<MemEvent>* const> lanes,
                         std::vector<WarpAccess>& out);

}  // namespace simt
