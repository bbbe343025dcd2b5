// How many blocks of a kernel one SM holds at once: the occupancy rule shared by the
// cost model (cost/kernel/occupancy.cpp: waves, latency hiding) and the simulator's
// cooperative-launch check (sim/exec/launch_checks.cpp: cudaErrorCooperativeLaunchTooLarge).
// Registers per thread are not known to simtlab, so they never limit here.
#pragma once
#include <algorithm>

namespace simt {

// Most blocks one SM holds (CUDA guide, 'Technical Specifications per Compute Capability').
inline int max_blocks_per_sm(int cc_major, int cc_minor) {
  const int cc = cc_major * 10 + cc_minor;
  if (cc == 75 || cc == 86 || cc == 87) return 16;
  if (cc == 89) return 24;
  return 32;  // 7.0, 8.0, 9.0, 10.0, 12.0
}

// CUDA guide: from compute capability 8.0 the runtime reserves 1 KB of shared memory per block.
inline double shared_reserved_per_block(int cc_major) { return cc_major >= 8 ? 1024 : 0; }

struct ResidentBlocks {
  int blocks = 0;             // per SM, at once (0: the block fits on no SM)
  const char* limiter = "";   // "threads", "shared memory", "blocks per SM"
};

// warps_per_block: ceil(threads / 32); shared_bytes_per_block: static + dynamic.
inline ResidentBlocks resident_blocks_per_sm(double warps_per_block, double shared_bytes_per_block,
                                             int max_warps_per_sm, int max_blocks, double shared_per_sm,
                                             double reserved_per_block) {
  ResidentBlocks r;
  const int by_warps = static_cast<int>(max_warps_per_sm / warps_per_block);
  r.blocks = std::min(max_blocks, by_warps);
  r.limiter = by_warps < max_blocks ? "threads" : "blocks per SM";
  if (shared_bytes_per_block > 0 && shared_per_sm > 0) {
    const int by_shared = static_cast<int>(shared_per_sm / (shared_bytes_per_block + reserved_per_block));
    if (by_shared < r.blocks) {
      r.blocks = by_shared;
      r.limiter = "shared memory";
    }
  }
  return r;
}

}  // namespace simt
