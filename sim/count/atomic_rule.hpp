// Global atomics: their sectors as Nsight Compute counts them, and how they pile up
// on the L2 (docs/counters.md, "Atomics"; measured in docs/validation/h200-atomics.md).
//
// l1tex__t_sectors_pipe_lsu_mem_global_op_{atom,red}.sum: per warp instruction, each
// distinct 32-byte sector counts once per *round*, the most lanes that update one
// address in that sector (same-address updates are applied one after another): 32
// lanes on one word are 32 sectors, 32 lanes on 32 consecutive words are 4, 32 lanes
// over 8 words of one sector (4 each) are 4.
//
// Contention: the L2 applies the rounds that fall in one 512-byte block of addresses
// one after another (the H200's address-to-slice hash is not published; a 512-byte
// granule fits the probe's sweep of 1 to 2^20 addresses). AtomicTally keeps, per
// launch, the rounds of each block, for the time model's `atomics` term.
#pragma once
#include "sim/count/counters.hpp"
#include "sim/memory/warp_access.hpp"

#include <cstdint>
#include <unordered_map>

namespace simt {

inline constexpr unsigned kAtomicGranuleShift = 9;  // 512-byte blocks

struct SectorRounds {
  std::uint64_t sector[32];  // address / 32
  std::uint32_t rounds[32];
  unsigned n = 0;
};

// The sectors an atomic warp instruction touches and the rounds of each.
SectorRounds atomic_rounds(const WarpAccess& a);
std::uint32_t atomic_sectors(const WarpAccess& a);  // the sum of the rounds

// Rounds per 512-byte block of a launch's global atomics (one per worker, merged).
class AtomicTally {
 public:
  void add(const WarpAccess& a);
  void merge_into(AtomicTally& to);  // and clears this one
  // AtomicHotRounds (the busiest block's rounds, times `scale` for a sampled launch)
  // and AtomicBlocks (blocks touched).
  void write(Counters& c, double scale) const;

 private:
  std::unordered_map<std::uint64_t, std::uint64_t> rounds_;
};

}  // namespace simt
