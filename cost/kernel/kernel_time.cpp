#include "cost/kernel/kernel_time.hpp"
#include "cost/kernel/tensor_term.hpp"

#include "cost/catalog/units.hpp"
#include "cost/kernel/kernel_rates.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace simt::cost {
namespace {

const char* kRoundTrip = "one global round trip";

void require(double v, const char* what) {
  if (!std::isfinite(v) || v < 0)
    throw std::invalid_argument(fmt::format("kernel counters: {} must be a finite number >= 0, got {}", what, v));
}

std::string sentence(const TimeTerm& t) {
  std::string amount = t.unit == "B" ? format_count(t.amount, "B") : format_count(t.amount, "");
  while (!amount.empty() && amount.back() == ' ') amount.pop_back();
  if (t.unit != "B") amount += " " + t.unit;
  return fmt::format("bound by {}: {}, {} — {}", t.what, amount, t.detail, format_seconds(t.seconds));
}

// The three memory levels an Nsight Compute hierarchical roofline shows. L1 moves
// 32 bytes per global sector and 128 per shared wavefront (32 banks x 4 bytes).
std::vector<MemoryLevelPoint> levels(const KernelCounters& c, const KernelRates& r, double flops) {
  auto point = [&](const char* name, double bytes, double bw) {
    return MemoryLevelPoint{name, bytes, bw, bytes > 0 ? flops / bytes : 0};
  };
  const double l1_bw = 128.0 * r.sms * r.clock_hz;
  const double l2 = 32 * (c.st_sectors + c.atom_sectors + c.ld_sectors * load_miss_fraction(c));
  return {point("l1_shared", 32 * c.global_sectors() + 128 * c.shared_wavefronts(), l1_bw),
          point("l2", l2, r.l2_bytes.value), point("dram", c.dram_read_bytes + c.dram_write_bytes,
                                                   r.dram_bytes.value)};
}

}  // namespace

double KernelCounters::warps_per_block() const { return std::ceil(threads_per_block / 32); }

void validate(const KernelCounters& c) {
  const std::pair<double, const char*> fields[] = {
      {c.blocks, "blocks"}, {c.threads_per_block, "threads per block"},
      {c.shared_bytes_per_block, "shared bytes per block"}, {c.ld_requests, "load requests"},
      {c.ld_sectors, "load sectors"}, {c.st_requests, "store requests"}, {c.st_sectors, "store sectors"},
      {c.atom_requests, "atomic requests"}, {c.atom_sectors, "atomic sectors"},
      {c.shared_ld_inst, "shared loads"}, {c.shared_st_inst, "shared stores"},
      {c.shared_ld_wavefronts, "shared load wavefronts"}, {c.shared_st_wavefronts, "shared store wavefronts"},
      {c.fp32_inst, "FP32 instructions"}, {c.fp64_inst, "FP64 instructions"}, {c.fp16_inst, "FP16 instructions"},
      {c.warp_inst, "warp instructions"}, {c.thread_inst, "thread instructions"},
      {c.warp_collectives, "warp collectives"}, {c.warp_barriers, "warp barriers"},
      {c.sass_warp_inst, "SASS warp instructions"}, {c.sass_thread_inst, "SASS thread instructions"},
      {c.dram_read_bytes, "DRAM read bytes"},
      {c.dram_write_bytes, "DRAM write bytes"}};
  for (auto& [v, what] : fields) require(v, what);
  if (!(c.blocks >= 1) || !(c.threads_per_block >= 1))
    throw std::invalid_argument("kernel counters: a launch needs at least one block of one thread");
  for (const GlobalSite& s : c.sites) {
    require(s.requests, "site requests");
    require(s.sectors, "site sectors");
  }
}

const TimeTerm& KernelTime::term(const std::string& name) const {
  for (const TimeTerm& t : terms)
    if (t.name == name) return t;
  throw std::out_of_range("no time term '" + name + "'");
}

KernelTime kernel_time(const DeviceSpec& d, const KernelCounters& c) {
  validate(c);
  const KernelRates r = kernel_rates(d);
  KernelTime k;
  k.kernel = c.kernel;
  k.device = d.name;
  k.occupancy = occupancy(c, r);
  k.terms = memory_terms(c, r, k.occupancy);
  for (TimeTerm& t : compute_terms(c, r, k.occupancy)) k.terms.push_back(std::move(t));
  if (auto tensor = tensor_term(d, c)) k.terms.push_back(std::move(*tensor));
  k.terms.push_back(latency_term(c, r, k.occupancy));
  k.terms.push_back(load_chain_term(c, r, k.occupancy));
  auto find = [&](const char* name) -> const TimeTerm& { return k.term(name); };
  const TimeTerm& latency = find("latency");
  const TimeTerm& issue = find("issue");
  const TimeTerm& loads = find("load_chain");
  // The throughput units other than the schedulers: each works in parallel.
  const TimeTerm* throughput = nullptr;
  for (const TimeTerm& t : k.terms)
    if (t.name != "latency" && t.name != "issue" && t.name != "load_chain" &&
        (!throughput || t.seconds > throughput->seconds))
      throughput = &t;
  // The stream fills after one global round trip: nothing arrives before it.
  const double fill = c.ld_requests + c.atom_requests > 0 ? r.global_latency_s.value : 0;
  // The latency chain adds to issue: a wave's warps start together and meet at
  // every barrier, so they wait together and nothing issues meanwhile. A warp's
  // later load rounds are its own: other warps issue while it waits, so the
  // chain adds to the larger of the two — unless the warps meet at barriers: then
  // a block's warps all wait for the same rounds, and the smaller adds too, less
  // the share the other blocks resident on the SM issue meanwhile.
  const TimeTerm& work = loads.seconds > issue.seconds ? loads : issue;
  const TimeTerm& other = loads.seconds > issue.seconds ? issue : loads;
  const double beside = std::max(1.0, std::min<double>(k.occupancy.resident_blocks, k.occupancy.busiest_sm_blocks));
  const double unhidden = c.warp_barriers > 0 ? other.seconds / beside : 0;
  const double chained = latency.seconds + work.seconds + unhidden;
  k.launch_overhead_s = r.launch_overhead_s.value;
  if (throughput->seconds + fill >= chained) {
    k.bound = throughput->name;
    k.sentence = sentence(*throughput);
    k.fill_s = fill;
    k.fill_what = fill > 0 ? kRoundTrip : "";
    k.predicted_s = k.launch_overhead_s + throughput->seconds + fill;
  } else {
    // Named by the larger part; the other adds, and the sentence says so.
    const bool latency_larger = latency.seconds >= work.seconds;
    const TimeTerm& binding = latency_larger ? latency : work;
    const TimeTerm& added = latency_larger ? work : latency;
    k.bound = binding.name;
    k.sentence = sentence(binding);
    if (added.seconds > 0) {
      k.fill_s = added.seconds;
      k.fill_what = added.what;
      k.sentence += fmt::format(", plus {} of {} (not overlapped: the warps wait together)",
                                format_seconds(added.seconds), added.what);
    }
    k.predicted_s = k.launch_overhead_s + chained;
  }
  k.flops = c.flops;
  k.peak_fp32_flops = 2.0 * r.fp32_lanes.value * r.sms * r.clock_hz;
  k.levels = levels(c, r, c.flops);
  return k;
}

std::string fill_suffix(const KernelTime& k) {
  if (!(k.fill_s > 0) || k.fill_what != kRoundTrip) return "";
  return fmt::format(" + {} fill", format_seconds(k.fill_s));
}

std::string explain(const KernelTime& k) {
  std::string s = fmt::format("{} on {}: {} = launch overhead {} + the binding term + {} {}\n  {}\n", k.kernel,
                              k.device, format_seconds(k.predicted_s), format_seconds(k.launch_overhead_s),
                              k.fill_what.empty() ? "fill" : k.fill_what, format_seconds(k.fill_s), k.sentence);
  for (const TimeTerm& t : k.terms)
    s += fmt::format("  {:<8} {:>10}  {}\n           = {}\n           rate: {}\n", t.name, format_seconds(t.seconds),
                     t.detail, t.formula, t.source);
  return s;
}

}  // namespace simt::cost
