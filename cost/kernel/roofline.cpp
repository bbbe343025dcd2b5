#include <algorithm>
#include "cost/kernel/roofline.hpp"

#include "cost/catalog/units.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace simt::cost {
namespace {

void require_size(double v, const char* what) {
  if (!std::isfinite(v) || v < 0)
    throw std::invalid_argument(fmt::format("{} must be a finite number >= 0, got {}", what, v));
}

MemoryLevel level(const char* name, double bytes, double bandwidth, double flops, double peak,
                  std::string source) {
  MemoryLevel m;
  m.name = name;
  m.bytes = bytes;
  m.bandwidth = bandwidth;
  m.time_s = bytes / bandwidth;
  m.intensity = bytes > 0 ? flops / bytes : INFINITY;
  m.ridge = peak / bandwidth;
  m.source = std::move(source);
  return m;
}

double l2_bandwidth_for(const DeviceSpec& d, const RooflineInput& in, std::string& source) {
  if (in.l2_bandwidth > 0) {
    source = "given on the command line";
    return in.l2_bandwidth;
  }
  if (d.l2_bandwidth > 0) {
    source = d.fields.at("l2_bandwidth_gbs").source;
    return d.l2_bandwidth;
  }
  throw std::invalid_argument(fmt::format(
      "an L2 roof needs an L2 bandwidth: {} has none in the catalog (NVIDIA does not publish "
      "one); pass --l2-bandwidth", d.name));
}

std::string explain(const DeviceSpec& d, const RooflineInput& in, const RooflineResult& r) {
  std::string s;
  s += "roofline: time = max(FLOPs / peak, bytes / bandwidth for each memory level)\n";
  s += fmt::format("  peak      = {} ({}, {})\n", format_rate(r.peak_flops, "FLOP/s"), in.precision,
                   r.peak_source);
  for (const MemoryLevel& m : r.levels)
    s += fmt::format("  bw {:<6} = {} ({})\n", m.name, format_rate(m.bandwidth, "B/s"), m.source);
  s += fmt::format("  compute   = {:.6g} FLOP / {:.6g} FLOP/s = {}\n", in.flops, r.peak_flops,
                   format_seconds(r.compute_s));
  for (const MemoryLevel& m : r.levels)
    s += fmt::format("  {:<9} = {:.6g} B / {:.6g} B/s = {}\n", m.name, m.bytes, m.bandwidth,
                     format_seconds(m.time_s));
  s += fmt::format("  intensity = FLOPs / DRAM bytes = {:.4g} FLOP/B; ridge = peak / bw = {:.4g} FLOP/B\n",
                   r.intensity, r.ridge);
  s += fmt::format("  binding   = {} ({}), time = {}, attainable = {} ({:.1f}% of peak)\n", r.bound,
                   r.bound == "compute" ? "intensity above every ridge" : "its bytes take longest",
                   format_seconds(r.time_s), format_rate(r.attainable_flops, "FLOP/s"),
                   100.0 * r.attainable_flops / r.peak_flops);
  s += fmt::format("  device    = {} ({})\n", d.name, d.full_name);
  s += "  caveat    = a bound, not a prediction: it assumes perfect overlap of compute and\n"
       "              memory, full occupancy and peak clocks; real kernels reach 50-90% of it.\n";
  return s;
}

}  // namespace

RooflineResult roofline(const DeviceSpec& d, const RooflineInput& in) {
  require_size(in.flops, "FLOPs");
  require_size(in.dram_bytes, "bytes");
  require_size(in.l2_bytes, "L2 bytes");
  if (in.flops == 0 && in.dram_bytes == 0 && in.l2_bytes == 0)
    throw std::invalid_argument("nothing to time: FLOPs and bytes are both zero");
  // Half precision on CUDA cores where the vendor publishes no such peak: FP32's.
  const bool half_unpublished = in.precision == "fp16_cuda_cores" && !d.peak.count(in.precision);
  const Sourced& peak = d.peak_for(half_unpublished ? "fp32" : in.precision);
  if (!(d.hbm_bandwidth > 0))
    throw std::invalid_argument(fmt::format("device '{}' has no memory bandwidth", d.name));

  RooflineResult r;
  r.precision = in.precision;
  r.peak_flops = peak.value;
  r.peak_source = peak.note.empty() ? peak.source : fmt::format("{}; {}", peak.source, peak.note);
  if (half_unpublished) r.peak_source += "; no non-tensor fp16 peak published: the FP32 one";
  r.bandwidth = d.hbm_bandwidth;
  r.compute_s = in.flops / peak.value;
  r.levels.push_back(level("dram", in.dram_bytes, d.hbm_bandwidth, in.flops, peak.value,
                           d.fields.at("memory_bandwidth_gbs").source));
  if (in.l2_bytes > 0) {
    std::string src;
    double bw = l2_bandwidth_for(d, in, src);
    r.levels.push_back(level("l2", in.l2_bytes, bw, in.flops, peak.value, src));
  }
  r.memory_s = r.levels[0].time_s;
  r.intensity = r.levels[0].intensity;
  r.ridge = r.levels[0].ridge;

  r.time_s = r.compute_s;
  r.bound = "compute";
  for (const MemoryLevel& m : r.levels) {
    if (m.time_s > r.time_s) {
      r.time_s = m.time_s;
      r.bound = m.name == "dram" ? "memory" : m.name;
    }
  }
  r.attainable_flops = in.flops > 0 ? in.flops / r.time_s : 0;
  if (d.calibration.dram_efficiency > 0)
    r.calibrated_s = std::max({d.calibration.min_kernel_s, r.compute_s,
                               r.memory_s / d.calibration.dram_efficiency});
  r.explanation = explain(d, in, r);
  return r;
}

namespace {

long long metric(const Metrics& m, const std::string& name) {
  auto it = m.find(name);
  return it == m.end() ? 0 : it->second;
}

// add + mul + 2·fma for one precision prefix ("f", "d", "h"); for "h", a packed
// instruction (simtlab's simt__thread_inst_h*2 metrics, absent from ncu's) gives two
// results per lane, as sim/count/counters.hpp's flops() counts them.
double flops_of(const Metrics& m, const std::string& p) {
  auto op = [&](const std::string& o) {
    return static_cast<double>(metric(m, "smsp__sass_thread_inst_executed_op_" + p + o + "_pred_on.sum"));
  };
  double flops = op("add") + op("mul") + 2 * op("fma");
  if (p == "h")
    for (const char* packed : {"add2", "mul2", "fma2"})
      flops += (packed[0] == 'f' ? 2 : 1) * static_cast<double>(metric(m, std::string("simt__thread_inst_h") + packed + ".sum"));
  return flops;
}

const char* kDramBytes = "dram__bytes.sum";
const char* kSectorsLd = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
const char* kSectorsSt = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";

}  // namespace

const char* dominant_precision(double fp32_flops, double fp64_flops, double fp16_flops) {
  if (fp64_flops > fp32_flops + fp16_flops) return "fp64";
  if (fp16_flops > fp32_flops + fp64_flops) return "fp16_cuda_cores";
  return "fp32";
}

RooflineInput roofline_input_from_metrics(const Metrics& m) {
  for (auto& [name, value] : m)
    if (value < 0) throw std::invalid_argument(fmt::format("metric {} is negative ({})", name, value));
  RooflineInput in;
  double f = flops_of(m, "f"), d = flops_of(m, "d"), h = flops_of(m, "h");
  in.flops = f + d + h;
  in.precision = dominant_precision(f, d, h);
  if (m.count(kDramBytes))
    in.dram_bytes = static_cast<double>(metric(m, kDramBytes));
  else
    in.dram_bytes = 32.0 * static_cast<double>(metric(m, kSectorsLd) + metric(m, kSectorsSt));
  return in;
}

std::string bytes_origin(const Metrics& m) {
  if (m.count(kDramBytes)) return "dram__bytes.sum (simulator's compulsory-DRAM estimate)";
  return "32 B x global ld+st sectors (no cache reuse: an upper bound on DRAM bytes)";
}

}  // namespace simt::cost
