// The rates and latencies the kernel time model charges, for one catalog device,
// each with where it comes from. Per-SM rates are architecture facts (CUDA guide,
// whitepapers, Nsight Compute's definitions); device-wide ones come from the
// datasheet; the rest from the device's optional "kernel_model" object in
// cost/catalog/devices.json (measured by simtlab's microbenchmarks where someone has).
#pragma once
#include "cost/catalog/catalog.hpp"

#include <string>

namespace simt::cost {

struct Rate {
  double value = 0;    // in `unit`
  std::string unit;    // "per SM per clock", "cycles", "B/s", ...
  std::string source;  // title <url>; note
  bool in_catalog = false;  // given for this device (not a default)
};

struct KernelRates {
  double clock_hz = 0;
  int sms = 0;
  // Per SM per clock.
  Rate shared_wavefronts;  // shared-memory pipeline passes
  Rate l1_wavefronts;      // L1TEX tag-stage passes for global accesses (one per 128-B line)
  Rate l1_l2_lines;        // line requests an SM sends to L2 (stores, load misses)
  Rate issue;              // warp instructions issued (4 schedulers)
  Rate blocks;             // thread blocks an SM starts and retires
  Rate fp32_lanes, fp64_lanes;  // thread FP instructions
  Rate fp16_lanes;              // thread fp16/bf16 instructions (a packed pair is one)
  // Device-wide.
  Rate l2_bytes;       // B/s at the L2; 0 = unknown (term skipped)
  Rate dram_bytes;     // achievable B/s = datasheet x efficiency
  Rate atomic_same_address;  // same-address updates per second at one L2 slice
  Rate atomic_rounds;        // atomic sector rounds per second in one 512-byte block of addresses
  Rate atomic_sectors;       // global atomic sectors per second, device-wide
  Rate host_link_bytes;      // B/s a kernel's zero-copy accesses get over the host link; 0 = no host link
  // Latencies and fixed costs.
  Rate launch_overhead_s;   // launch to first instruction + teardown
  Rate global_latency_s;    // one global load round trip from an idle SM
  Rate sysmem_latency_s;    // a kernel's first round trip to page-locked host memory
  Rate shared_latency_clk;  // one shared-memory access, dependent
  Rate shuffle_latency_clk;
  Rate barrier_latency_clk;  // one __syncthreads once every warp has arrived
  Rate l2_load_round_clk;   // one round of a warp's load loop whose loads hit L2; 0 = not measured
  Rate l2_hit_latency_clk;  // one dependent load that misses L1 and hits L2; 0 = not measured
  Rate l1_hit_latency_clk;  // one dependent load that hits L1; 0 = not measured
  // Occupancy limits.
  int max_blocks_per_sm = 32;
  int max_warps_per_sm = 64;
  double shared_per_sm = 0;
  double shared_reserved_per_block = 0;  // the runtime's own, per resident block
};

// Throws std::invalid_argument when the device lacks what every term needs (SM
// count, clock, memory bandwidth).
KernelRates kernel_rates(const DeviceSpec& d);

}  // namespace simt::cost
