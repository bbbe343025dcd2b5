// The compulsory-DRAM estimate (dram__bytes_{read,write}.sum, an estimate): a
// 32-byte sector costs DRAM traffic the first time a launch reads it (unless it
// wrote it first) and once if the launch writes it. No cache is modelled here.
#pragma once
#include "sim/count/counters.hpp"
#include "sim/memory/warp_access.hpp"

#include <cstdint>

namespace simt {

// DRAM estimate for the 32-byte sectors of one access, in the launch numbered `serial`.
void account_dram_sector(Counters& totals, std::uint32_t serial, std::uintptr_t sector, MemOp op);
void account_dram(Counters& totals, std::uint32_t serial, std::uintptr_t addr, unsigned size, MemOp op);

}  // namespace simt
