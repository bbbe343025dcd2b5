// Glue between what the simulator records and the kernel time model's typed
// input, and the model's answer as text and JSON. Every command that shows a time
// (run, exec, roofline --counters) goes through here, so they agree.
#pragma once
#include "cost/kernel/kernel_time.hpp"
#include "cost/kernel/roofline.hpp"
#include "sim/state/launch_record.hpp"
#include "sim/report/report.hpp"  // global_sites_json

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace simt::timing {

// What the time model needs of a launch besides its counters.
struct LaunchShape {
  std::string kernel;
  double blocks = 0, threads_per_block = 0, shared_bytes_per_block = 0;
};

// The one typed conversion to the time model's input: FLOPs are Counters::flops(),
// the instruction mixes the catalog's counters. Both functions below come here.
cost::KernelCounters time_model_counters(const LaunchShape& shape, const Counters& counters,
                                         std::vector<cost::GlobalSite> sites,
                                         std::vector<cost::SharedSite> shared_sites = {});

// From a launch the simulator just ran: totals plus one site per global instruction.
cost::KernelCounters time_model_counters(const LaunchRecord& r);

// A launch's "metrics" object read back into counters by the metric catalog's names
// (sim/count/metrics.cpp); ncu's separate reduction metrics are added to the atomics.
// Without any dram__bytes metric every sector is taken to reach DRAM once.
Counters counters_from_metrics(const nlohmann::json& metrics);

// The plain roofline's input from the same record: FLOPs and the DRAM estimate as
// the metric catalog defines them (sim/count/metrics.cpp), read without a detour
// through JSON.
cost::RooflineInput roofline_input(const LaunchRecord& r);

// From a launch as `simt run --json` prints it ({"grid", "block", "metrics", ...}).
// Uses "global_sites" when present, else the per-line "lines" (two accesses on one
// line then count as one site), else the totals. Throws std::runtime_error naming
// the missing field. Without any dram__bytes metric every sector is taken to reach
// DRAM once (as the roofline does).
cost::KernelCounters time_model_counters(const nlohmann::json& launch);

// {"predicted_s", "bound", "sentence", "launch_overhead_s", "occupancy", "terms", "levels"}.
nlohmann::json kernel_time_json(const cost::KernelTime& t);

// Two lines for `simt run`: the time and what binds, then the runner-up terms.
std::string kernel_time_text(const cost::KernelTime& t);

// The launch's time on `device` as JSON and as text for `simt run`; where the
// device cannot be priced (no SM count or clock in the catalog), "time" is null
// with a "time_unavailable" reason, and the text says so.
nlohmann::json launch_time_json(const cost::DeviceSpec& device, const LaunchRecord& r);
std::string launch_time_text(const cost::DeviceSpec& device, const LaunchRecord& r);

}  // namespace simt::timing
