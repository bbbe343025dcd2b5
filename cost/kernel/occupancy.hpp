// Occupancy and waves: how many blocks an SM holds at once, what limits it, how
// many rounds ("waves") the grid needs, and how many blocks the busiest SM runs.
// These scale the per-SM terms of the kernel time model: a grid of 64 blocks on
// 132 SMs leaves 68 idle, and 133 blocks give one SM two blocks' work.
#pragma once
#include "cost/kernel/kernel_counters.hpp"
#include "cost/kernel/kernel_rates.hpp"

#include <string>

namespace simt::cost {

struct Occupancy {
  int resident_blocks = 0;   // per SM, at once
  std::string limiter;       // "threads", "shared memory", "blocks per SM"
  double waves = 0;          // ceil(blocks / (resident x SMs))
  double blocks_total = 0;
  double busiest_sm_blocks = 0;  // ceil(blocks / SMs): the SM that finishes last
  double busy_sms = 0;       // min(blocks, SMs)
  double warps_per_sm = 0;   // resident warps on a full SM (latency hiding)
  // Share of the launch's work the busiest SM does: busiest_sm_blocks / blocks.
  double busiest_share = 0;
};

// Registers per thread are not known to the simulator, so they never limit here
// (docs/cost-model.md says when that is wrong).
Occupancy occupancy(const KernelCounters& c, const KernelRates& r);

}  // namespace simt::cost
