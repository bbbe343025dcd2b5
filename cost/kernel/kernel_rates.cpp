// Where each rate of the kernel time model comes from. Architecture facts are
// constants here with their source; per-device values are read from the catalog
// ("kernel_model"), falling back to documented defaults that say so.
#include "cost/kernel/kernel_rates.hpp"
#include "util/occupancy.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace simt::cost {
namespace {

// Sources of the architecture constants (titles and URLs, as the catalog's).
const char* kCudaGuide =
    "CUDA C++ Programming Guide, 'Shared Memory' (32 banks, 32 bits per bank per clock) and "
    "'Features and Technical Specifications' <https://docs.nvidia.com/cuda/cuda-c-programming-guide/>";
const char* kNcuGuide =
    "Nsight Compute Kernel Profiling Guide, 'Memory Tables': a wavefront is the work one pipeline stage "
    "processes per cycle <https://docs.nvidia.com/nsight-compute/ProfilingGuide/>";
const char* kSmDiagram =
    "NVIDIA architecture whitepapers (Volta..Hopper): four SM processing blocks, each with one warp "
    "scheduler dispatching one warp instruction per clock";
const char* kDefaultNote =
    "not in this device's catalog entry: the H200's value (docs/cost-model.md, 'Kernel time')";

const char* kL2RoundPending =
    "not measured for this device (tests/cuda/time_micro.cuh, micro_load_loop): L2 hits in the load chain are not charged";

Rate rate(double v, const char* unit, std::string source, bool in_catalog = false) {
  return {v, unit, std::move(source), in_catalog};
}

// A "kernel_model" value of the device, or the default with a note saying so.
Rate from_catalog(const DeviceSpec& d, const char* key, double fallback, const char* unit, double scale = 1) {
  auto it = d.kernel_model.find(key);
  if (it == d.kernel_model.end()) return rate(fallback * scale, unit, kDefaultNote);
  const Sourced& s = it->second;
  return rate(s.value * scale, unit, s.note.empty() ? s.source : s.source + "; " + s.note, true);
}

// Most blocks one SM holds: util/occupancy.hpp, by compute capability ("9.0").
int max_blocks_per_sm(const std::string& cc) {
  const double v = std::stod(cc);
  const int major = static_cast<int>(v);
  return simt::max_blocks_per_sm(major, static_cast<int>(std::lround((v - major) * 10)));
}

// Thread FP instructions per SM per clock, from the datasheet peak: peak FLOP/s =
// SMs x lanes x 2 (an FMA is two FLOPs) x clock.
Rate fp_lanes(const DeviceSpec& d, const char* precision, double clock_hz) {
  auto it = d.peak.find(precision);
  if (it == d.peak.end()) return rate(0, "thread instructions per SM per clock", "no published peak");
  double lanes = it->second.value / (2.0 * d.sm_count * clock_hz);
  return rate(lanes, "thread instructions per SM per clock",
              fmt::format("{} peak / (2 x {} SMs x clock); {}", precision, d.sm_count, it->second.source));
}

// Half precision on the CUDA cores: the peak counts a packed HFMA2 as 4 FLOPs, and
// an instruction per lane is what the counters count (a packed pair is one). A
// device that publishes no such peak gets its FP32 instruction rate, said so.
Rate half_lanes(const DeviceSpec& d, const KernelRates& r) {
  auto it = d.peak.find("fp16_cuda_cores");
  if (it == d.peak.end())
    return rate(r.fp32_lanes.value, "thread instructions per SM per clock",
                "no published non-tensor fp16 peak: the FP32 instruction rate", false);
  return rate(it->second.value / (4.0 * d.sm_count * r.clock_hz), "thread instructions per SM per clock",
              fmt::format("fp16_cuda_cores peak / (4 x {} SMs x clock): a packed FMA is 4 FLOPs; {}", d.sm_count,
                          it->second.source));
}

// Page-locked host memory a kernel reads or writes crosses the device's host link at
// its datasheet rate per direction (the catalog's "host_link") times the efficiency
// pinned copies reach on the device, where measured; no host link: not priced.
Rate host_link(const DeviceSpec& d) {
  if (d.host_link.empty()) return rate(0, "B/s", "no host_link for this device in the catalog: not priced", false);
  try {
    const LinkSpec& l = Catalog::builtin().link(d.host_link);
    const Rate eff = from_catalog(d, "host_copy_efficiency", 1.0, "fraction");
    return rate(l.bandwidth * eff.value, "B/s",
                fmt::format("{} per direction ({}) x {:g} ({})", l.name, l.source, eff.value, eff.source),
                eff.in_catalog);
  } catch (const std::exception&) {
    return rate(0, "B/s", fmt::format("host link '{}' not in the catalog: not priced", d.host_link), false);
  }
}

}  // namespace

KernelRates kernel_rates(const DeviceSpec& d) {
  if (d.sm_count <= 0 || !(d.boost_clock_ghz > 0) || !(d.hbm_bandwidth > 0))
    throw std::invalid_argument(fmt::format(
        "device '{}': the kernel time model needs the SM count, boost clock and memory bandwidth, "
        "and the catalog does not publish them all",
        d.name));
  KernelRates r;
  r.clock_hz = d.boost_clock_ghz * 1e9;
  r.sms = d.sm_count;
  r.shared_wavefronts = rate(1, "wavefronts per SM per clock", kCudaGuide);
  r.l1_wavefronts = rate(1, "wavefronts per SM per clock", kNcuGuide);
  Rate per_line = from_catalog(d, "l1_l2_clk_per_line", 2.2, "cycles per line");
  r.l1_l2_lines = rate(1.0 / per_line.value, "lines per SM per clock", per_line.source, per_line.in_catalog);
  r.issue = rate(4, "warp instructions per SM per clock", kSmDiagram);
  Rate per_block = from_catalog(d, "block_dispatch_clk", 157, "cycles per block");
  r.blocks = rate(1.0 / per_block.value, "blocks per SM per clock", per_block.source, per_block.in_catalog);
  r.fp32_lanes = fp_lanes(d, "fp32", r.clock_hz);
  r.fp64_lanes = fp_lanes(d, "fp64", r.clock_hz);
  r.fp16_lanes = half_lanes(d, r);
  Rate l2 = from_catalog(d, "l2_bytes_per_clk", 0, "B/s", r.clock_hz);
  r.l2_bytes = l2;
  Rate eff = from_catalog(d, "dram_efficiency", 0.9, "fraction");
  r.dram_bytes = rate(d.hbm_bandwidth * eff.value, "B/s",
                      fmt::format("{:.0f}% of the datasheet's {:.0f} GB/s ({}); efficiency: {}", eff.value * 100,
                                  d.hbm_bandwidth / 1e9, d.fields.at("memory_bandwidth_gbs").source, eff.source),
                      eff.in_catalog);
  r.atomic_same_address = from_catalog(d, "atomic_same_address_clk", 1, "updates per second", r.clock_hz);
  r.atomic_rounds = from_catalog(d, "atomic_round_clk", 0.691, "rounds per second", r.clock_hz);
  r.atomic_sectors = from_catalog(d, "atomic_sectors_clk", 49.8, "sectors per second", r.clock_hz);
  r.host_link_bytes = host_link(d);
  r.sysmem_latency_s = from_catalog(d, "sysmem_latency_us", 2.5, "s", 1e-6);
  r.launch_overhead_s = from_catalog(d, "launch_overhead_us", 1.66, "s", 1e-6);
  r.global_latency_s = from_catalog(d, "global_latency_us", 0.384, "s", 1e-6);
  r.shared_latency_clk = from_catalog(d, "shared_latency_clk", 30, "cycles");
  r.shuffle_latency_clk = from_catalog(d, "shuffle_latency_clk", 30, "cycles");
  r.barrier_latency_clk = from_catalog(d, "barrier_latency_clk", 30, "cycles");
  // No default: where no microbenchmark has measured it, L2 hits in the load chain are free.
  r.l2_load_round_clk = d.kernel_model.count("l2_load_round_clk")
                             ? from_catalog(d, "l2_load_round_clk", 0, "cycles")
                             : rate(0, "cycles", kL2RoundPending);
  r.l2_hit_latency_clk = d.kernel_model.count("l2_hit_latency_clk")
                              ? from_catalog(d, "l2_hit_latency_clk", 0, "cycles")
                              : rate(0, "cycles", kL2RoundPending);
  // No default either: unmeasured, a warp's re-reads wait as its other L2 hits do.
  r.l1_hit_latency_clk = d.kernel_model.count("l1_hit_latency_clk")
                              ? from_catalog(d, "l1_hit_latency_clk", 0, "cycles")
                              : rate(0, "cycles", kL2RoundPending);
  r.max_blocks_per_sm = max_blocks_per_sm(d.compute_capability);
  r.max_warps_per_sm = d.max_threads_per_sm / d.warp_size;
  r.shared_per_sm = d.shared_per_sm_bytes;
  r.shared_reserved_per_block = simt::shared_reserved_per_block(static_cast<int>(std::stod(d.compute_capability)));
  return r;
}

}  // namespace simt::cost
