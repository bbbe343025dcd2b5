// The kernel time model: one launch's counters on a catalog device give a
// predicted GPU time, the term that binds, named in words, and every other term
// for comparison. Formulas, rates and their sources: docs/cost-model.md, 'Kernel time'.
//
//   throughput = max(DRAM, L2, L1-to-L2 lines, L1 wavefronts, shared wavefronts,
//                    same-address atomics, issue, FP32, FP64)
//   time = launch overhead + max(waves x chain, throughput + fill)
//
// The max, not a sum: each unit works in parallel with the others, and a kernel
// runs as fast as its busiest unit lets it (the roofline's assumption, level by
// level). One global round trip (fill) adds to a throughput-bound kernel that
// loads: its stream cannot start before the first loads return. A latency-bound
// kernel is its waves of chains. The launch overhead adds because no unit works before the first block
// starts.
#pragma once
#include "cost/catalog.hpp"
#include "cost/kernel_counters.hpp"
#include "cost/kernel_terms.hpp"
#include "cost/occupancy.hpp"

#include <string>
#include <vector>

namespace simt::cost {

// One level of the memory hierarchy for a hierarchical roofline: the bytes that
// level moves, its peak bandwidth, and FLOPs per byte at that level.
struct MemoryLevelPoint {
  std::string name;        // "l1_shared", "l2", "dram"
  double bytes = 0;
  double bandwidth = 0;    // B/s, peak (0 = unknown)
  double intensity = 0;    // FLOP per byte of this level
};

struct KernelTime {
  std::string kernel, device;
  double predicted_s = 0;
  double launch_overhead_s = 0;
  double drain_s = 0;      // the fill: one global round trip, added when a throughput term binds
  std::string bound;       // name of the binding term (TimeTerm::name)
  std::string sentence;    // "bound by shared-memory wavefronts: 1.05 M wavefronts, 32 per request (bank conflicts) — 4.3 us"
  std::vector<TimeTerm> terms;  // every term, binding or not
  Occupancy occupancy;
  std::vector<MemoryLevelPoint> levels;
  double flops = 0;
  double peak_fp32_flops = 0;

  const TimeTerm& term(const std::string& name) const;  // throws if absent
};

// Throws std::invalid_argument on invalid counters or a device the model cannot
// price (see kernel_rates()).
KernelTime kernel_time(const DeviceSpec& device, const KernelCounters& counters);

// Several lines: the sentence, then each term with its formula and source.
std::string explain(const KernelTime& t);

}  // namespace simt::cost
