// The compulsory-DRAM estimate (dram__bytes_{read,write}.sum, an estimate): a
// 32-byte sector costs DRAM traffic the first time a launch reads it (unless it
// wrote it first) and once if the launch writes it. No cache is modelled here.
#pragma once
#include "sim/count/counters.hpp"
#include "sim/memory/warp_access.hpp"

#include <cstdint>

namespace simt {

// The estimate's counters: each counts a sector once a launch, over every block, so a
// sampled launch's are its blocks' sum, never scaled (sim/shortcuts/sampling.cpp), and an
// uncounted block keeps adding to them (sim/exec/worker.cpp).
inline constexpr Counter kSectorEstimateCounters[] = {Counter::DramReadBytes, Counter::DramWriteBytes,
                                                      Counter::SysmemReadBytes, Counter::SysmemWriteBytes};

// DRAM estimate for the 32-byte sectors of one access, in the launch numbered `serial`.
// Both return the bytes the access reads from DRAM (its first touches), which the
// caller also files under the access's site: the kernel time model tells a loop
// that streams from DRAM from one that re-reads what L2 holds.
std::uint32_t account_dram_sector(Counters& totals, std::uint32_t serial, std::uintptr_t sector, MemOp op);
std::uint32_t account_dram(Counters& totals, std::uint32_t serial, std::uintptr_t addr, unsigned size, MemOp op);

}  // namespace simt
