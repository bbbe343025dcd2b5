// What the memory pipeline makes of one warp instruction, and how it is counted.
#pragma once
#include "sim/count/bank_rule.hpp"
#include "sim/count/counters.hpp"
#include "sim/count/sector_rule.hpp"
#include "sim/memory/warp_access.hpp"

namespace simt {

// What the memory pipeline makes of one instruction: sectors for global memory,
// wavefronts for a shared load or store.
struct InstructionCost {
  std::uint32_t sectors = 0;
  std::uint32_t l1_cycles = 0;  // global: L1's clocks for its lines (sim/count/l1_rule.hpp)
  SharedCost shared;
};
InstructionCost cost_of(const WarpAccess& a);

// Adds one instruction to the counters, given its cost (the caller may know it already).
void count_access(const WarpAccess& a, const InstructionCost& cost, Counters& c);

}  // namespace simt
