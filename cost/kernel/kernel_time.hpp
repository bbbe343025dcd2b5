// The kernel time model: one launch's counters on a catalog device give a
// predicted GPU time, the term that binds, named in words, and every other term
// for comparison. Formulas, rates and their sources: docs/cost-model.md, 'Kernel time'.
//
//   throughput = max(DRAM, L2, L1-to-L2 lines, L1 wavefronts, shared wavefronts,
//                    same-address atomics, FP32, FP64, tensor)
//   time = launch overhead + max(throughput + fill, latency + max(issue, load chain))
//
// The max over the throughput units: each works in parallel with the others, and
// a kernel runs as fast as its busiest unit lets it (the roofline's assumption,
// level by level). One global round trip (fill) adds to a throughput-bound kernel
// that loads: its stream cannot start before the first loads return. The latency
// chain (waves x: first global round trip, barriers, shared accesses, shuffles)
// adds to instruction issue, not under it: a wave's warps start together and meet
// at every barrier, so they wait at the same time and no scheduler issues
// meanwhile. A warp's later load rounds (a loop that uses each loaded value before
// the next iteration) are its own: other warps issue while it waits, so the chain
// adds to the larger of the two. The launch overhead adds because no unit works
// before the first block starts.
#pragma once
#include "cost/catalog/catalog.hpp"
#include "cost/kernel/kernel_counters.hpp"
#include "cost/kernel/kernel_terms.hpp"
#include "cost/kernel/occupancy.hpp"

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
  double fill_s = 0;      // what adds to the binding term: one global round trip when a throughput
                          // term binds; else the smaller of latency and max(issue, load chain)
  std::string fill_what;  // what fill_s is, in words ("" when 0)
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

// " + 0.384 us fill" when a throughput term binds and the fill adds; "" otherwise
// (what adds to a latency-bound or issue-bound time is in the sentence already).
std::string fill_suffix(const KernelTime& t);

// Several lines: the sentence, then each term with its formula and source.
std::string explain(const KernelTime& t);

}  // namespace simt::cost
