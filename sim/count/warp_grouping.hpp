// Turns the per-lane access logs of one warp into warp-level instructions and
// counts them the way the memory pipeline would: requests and 32-byte sectors for
// global memory, wavefronts and bank conflicts for shared memory.
#pragma once
#include "sim/count/counters.hpp"
#include "sim/memory/events.hpp"
#include "sim/memory/warp_access.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace simt {

// Lanes that executed the k-th dynamic instance of the same site form one
// instruction (SIMT reconvergence for structured code).
void group_warp_accesses(std::span<const std::vector<MemEvent>* const> lanes,
                         std::vector<WarpAccess>& out);

// Distinct 32-byte sectors touched by the active lanes (as address / 32, sorted
// into `out`, which holds 64), and their number.
std::uint32_t distinct_sectors(const WarpAccess& a, std::uint64_t* out);
std::uint32_t count_sectors(const WarpAccess& a);

struct SharedCost {
  std::uint32_t wavefronts = 0;
  std::uint32_t ideal = 0;
};

// Which word each of the 32 banks serves in one wavefront, and to which lanes.
struct BankMap {
  std::uint32_t used = 0;      // banks with a word
  std::uint64_t word[32];      // address / 4
  std::uint32_t lanes[32];     // lanes that access it
};
// For an instruction of 4-byte (or narrower, aligned) shared accesses: fills the
// map and returns true when no bank has to serve two different words, the common
// case in tuned kernels (one wavefront). False otherwise; the map is then partial.
bool map_banks(const WarpAccess& a, BankMap& m);

// Bank-conflict rule: 32 banks of 4 bytes; lanes reading the same word share it;
// 8- and 16-byte accesses are processed per half-warp.
SharedCost shared_wavefronts(const WarpAccess& a);

// What the memory pipeline makes of one instruction: sectors for global memory,
// wavefronts for a shared load or store.
struct InstructionCost {
  std::uint32_t sectors = 0;
  SharedCost shared;
};
InstructionCost cost_of(const WarpAccess& a);

// Adds one instruction to the counters, given its cost (the caller may know it already).
void count_access(const WarpAccess& a, const InstructionCost& cost, Counters& c);

}  // namespace simt
