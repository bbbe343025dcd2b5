// Shared memory: the wavefronts and bank conflicts of one warp instruction
// (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum, ..._bank_conflicts_...).
#pragma once
#include "sim/memory/warp_access.hpp"

#include <cstdint>

namespace simt {

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

}  // namespace simt
