// The roofline: time = max(FLOPs / peak, bytes_level / bandwidth_level) over the
// memory levels given (DRAM always, L2 optionally), with the binding term named and
// the inputs kept so the result can explain itself.
#pragma once
#include "cost/catalog/catalog.hpp"

#include <map>
#include <string>
#include <vector>

namespace simt::cost {

struct RooflineInput {
  double flops = 0;
  double dram_bytes = 0;           // HBM traffic
  std::string precision = "fp32";  // key into DeviceSpec::peak
  // Optional second memory level. l2_bandwidth overrides the catalog's (NVIDIA
  // publishes none, so it usually must be given); 0 bytes = level not modelled.
  double l2_bytes = 0;
  double l2_bandwidth = 0;
};

// One memory level's roof.
struct MemoryLevel {
  std::string name;      // "dram" or "l2"
  double bytes = 0;
  double bandwidth = 0;  // bytes/s
  double time_s = 0;     // bytes / bandwidth
  double intensity = 0;  // FLOP per byte of this level
  double ridge = 0;      // peak / bandwidth: intensity where this roof meets compute
  std::string source;    // of the bandwidth
};

struct RooflineResult {
  double compute_s = 0;
  double memory_s = 0;         // DRAM term (the classic roofline)
  double time_s = 0;           // max over compute and all memory levels
  std::string bound;           // "compute", "memory" (DRAM) or "l2"
  double intensity = 0;        // FLOP per DRAM byte
  double ridge = 0;            // FLOP per DRAM byte where the two roofs meet
  double attainable_flops = 0; // FLOP/s = flops / time_s = min(peak, bw * intensity, ...)
  double peak_flops = 0;
  double bandwidth = 0;        // DRAM bytes/s
  std::vector<MemoryLevel> levels;  // dram first, then l2 if modelled
  std::string precision;
  std::string peak_source;     // "title <url>; note"
  std::string explanation;     // formula with values plugged in and sources
  // Where the device is calibrated: max(min kernel time, compute, DRAM at the best
  // measured efficiency); 0 otherwise. A better guess than the bound, not a bound.
  double calibrated_s = 0;
};

// Throws std::invalid_argument on negative/non-finite inputs or when nothing is
// given (flops and bytes both zero), and when the device lacks the precision.
RooflineResult roofline(const DeviceSpec& device, const RooflineInput& in);

// The counters of one simulated launch, by ncu metric name.
using Metrics = std::map<std::string, long long>;

// FLOPs and bytes from Nsight Compute metric names, as `simt run --json` prints:
//   FLOPs = Σ over {f,d,h}: add + mul + 2·fma   (smsp__sass_thread_inst_executed_op_*_pred_on.sum)
//   bytes = dram__bytes.sum when present (the simulator's DRAM estimate), else
//           32 · Σ l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum (every sector
//           touched goes to DRAM: an upper bound with no cache reuse).
// Precision: "fp64" if double-precision FLOPs are the majority, else "fp32" (half
// precision CUDA-core FLOPs are charged at the fp32 rate: a conservative bound).
// The peak a kernel is priced at: that of the precision doing most of its FLOPs.
// Half precision without tensor cores has its own (fp16_cuda_cores); tensor-core
// FLOPs are priced by the kernel time model. The one rule, for every caller.
const char* dominant_precision(double fp32_flops, double fp64_flops, double fp16_flops);

RooflineInput roofline_input_from_metrics(const Metrics& metrics);

// A human sentence naming where roofline_input_from_metrics took its bytes from.
std::string bytes_origin(const Metrics& metrics);

}  // namespace simt::cost
