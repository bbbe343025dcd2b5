#include "timing/time_model_io.hpp"

#include "cost/catalog/units.hpp"
#include "sim/count/metrics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace simt::timing {
namespace {

using nlohmann::json;
using cost::GlobalSite;

double metric(const json& m, const std::string& name) {
  auto it = m.find(name);
  return it == m.end() || !it->is_number() ? 0.0 : it->get<double>();
}

double dim3_product(const json& launch, const char* key) {
  auto it = launch.find(key);
  if (it == launch.end() || !it->is_array()) throw std::runtime_error(fmt::format("launch: missing array \"{}\"", key));
  double n = 1;
  for (const json& v : *it) n *= v.get<double>();
  return n;
}

const char* const kOps[] = {"ld", "st", "atom", "red"};

// Sites from per-line metrics: one site per line and kind of access.
std::vector<GlobalSite> sites_from_lines(const json& lines) {
  std::vector<GlobalSite> out;
  for (const json& l : lines) {
    const json& m = l.at("metrics");
    const double warp = metric(m, "simt__warp_inst_counted.sum");
    const double lanes = warp > 0 ? std::clamp(metric(m, "simt__thread_inst_counted.sum") / warp, 1.0, 32.0) : 32;
    for (int k = 0; k < 4; ++k) {
      double req = metric(m, fmt::format("l1tex__t_requests_pipe_lsu_mem_global_op_{}.sum", kOps[k]));
      double sec = metric(m, fmt::format("l1tex__t_sectors_pipe_lsu_mem_global_op_{}.sum", kOps[k]));
      if (req > 0) out.push_back({static_cast<GlobalSite::Op>(std::min(k, 2)), req, sec, lanes});  // RED: an atomic
    }
  }
  return out;
}

std::vector<cost::SharedSite> shared_sites_from_json(const json& sites) {
  std::vector<cost::SharedSite> out;
  for (const json& s : sites)
    out.push_back({s.at("requests").get<double>(), s.value("straight_line", false), s.value("loop", 0u),
                   s.value("batched", false)});
  return out;
}

std::vector<GlobalSite> sites_from_json(const json& sites) {
  std::vector<GlobalSite> out;
  for (const json& s : sites) {
    std::string op = s.at("op").get<std::string>();
    int k = op == "ld" ? 0 : op == "st" ? 1 : 2;
    out.push_back({static_cast<GlobalSite::Op>(k), s.at("requests").get<double>(), s.at("sectors").get<double>(),
                   s.value("lanes", 32.0), s.value("straight_line", false), s.value("loop", 0u),
                   s.value("batched", false), s.value("dram_read_bytes", -1.0), s.value("block", 0u),
                   s.value("reread_sectors", 0.0), s.value("copies", 1.0), s.value("deep", false),
                   s.value("l1_cycles", 0.0)});
  }
  return out;
}

json term_json(const cost::TimeTerm& t) {
  return {{"name", t.name},     {"what", t.what},       {"time_s", t.seconds}, {"amount", t.amount},
          {"unit", t.unit},     {"detail", t.detail},   {"formula", t.formula}, {"source", t.source}};
}

}  // namespace

// The one typed conversion from counters to the time model's input: every caller
// (a launch record, a launch's JSON) comes through here, so FLOPs are Counters::flops().
cost::KernelCounters time_model_counters(const LaunchShape& shape, const Counters& t, std::vector<GlobalSite> sites,
                                         std::vector<cost::SharedSite> shared_sites) {
  auto v = [&](Counter k) { return static_cast<double>(t[k]); };
  cost::KernelCounters c;
  c.kernel = shape.kernel;
  c.blocks = shape.blocks;
  c.threads_per_block = shape.threads_per_block;
  c.shared_bytes_per_block = shape.shared_bytes_per_block;
  c.ld_requests = v(Counter::GlobalLdRequests), c.ld_sectors = v(Counter::GlobalLdSectors);
  c.st_requests = v(Counter::GlobalStRequests), c.st_sectors = v(Counter::GlobalStSectors);
  c.atom_requests = v(Counter::GlobalAtomRequests) + v(Counter::GlobalRedRequests);
  c.atom_sectors = v(Counter::GlobalAtomSectors) + v(Counter::GlobalRedSectors);
  c.atomic_hot_rounds = v(Counter::AtomicHotRounds);
  c.shared_ld_inst = v(Counter::SharedLdInst);
  c.shared_st_inst = v(Counter::SharedStInst);
  c.shared_atom_inst = v(Counter::SharedAtomInst);
  c.shared_ld_wavefronts = v(Counter::SharedLdWavefronts);
  c.shared_st_wavefronts = v(Counter::SharedStWavefronts);
  c.fp32_inst = v(Counter::FAdd) + v(Counter::FMul) + v(Counter::FFma);
  c.fp64_inst = v(Counter::DAdd) + v(Counter::DMul) + v(Counter::DFma);
  c.fp16_inst = v(Counter::HAdd) + v(Counter::HMul) + v(Counter::HFma);
  c.flops = static_cast<double>(t.flops());
  c.tensor_tf32_flops = v(Counter::TensorTf32Flops);
  c.tensor_16bit_flops = v(Counter::Tensor16Flops);
  c.warp_inst = v(Counter::WarpInst);
  c.thread_inst = v(Counter::ThreadInst);
  c.warp_collectives = v(Counter::WarpCollectives);
  c.warp_barriers = v(Counter::WarpBarriers);
  c.sass_warp_inst = v(Counter::InstExecuted);
  c.sass_thread_inst = v(Counter::ThreadInstExecuted);
  c.dram_read_bytes = v(Counter::DramReadBytes);
  c.dram_write_bytes = v(Counter::DramWriteBytes);
  c.sysmem_read_bytes = v(Counter::SysmemReadBytes);
  c.sysmem_write_bytes = v(Counter::SysmemWriteBytes);
  c.carried_chain_clk = v(Counter::CarriedChainClk);
  c.straight_chain_clk = v(Counter::StraightChainClk);
  c.load_use_chain_clk = v(Counter::LoadUseChainClk);
  c.l1_data_cycles = v(Counter::GlobalL1DataCycles);
  c.sites = std::move(sites);
  c.shared_sites = std::move(shared_sites);
  return c;
}

Counters counters_from_metrics(const json& m) {
  Counters c;
  for (const MetricInfo& info : metric_catalog()) {
    auto it = m.find(info.name);
    if (it == m.end()) continue;
    if (!it->is_number() || it->get<double>() < 0)
      throw std::runtime_error(fmt::format("metric {} is not a count ({})", info.name, it->dump()));
    c[info.counter] = it->get<std::uint64_t>();
  }
  if (!m.contains("dram__bytes_read.sum") && !m.contains("dram__bytes_write.sum")) {
    if (m.contains("dram__bytes.sum")) {
      c[Counter::DramReadBytes] = static_cast<std::uint64_t>(metric(m, "dram__bytes.sum"));
    } else {  // no DRAM estimate: every sector goes to DRAM, as the roofline assumes
      c[Counter::DramReadBytes] = 32 * c[Counter::GlobalLdSectors];
      c[Counter::DramWriteBytes] =
          32 * (c[Counter::GlobalStSectors] + c[Counter::GlobalAtomSectors] + c[Counter::GlobalRedSectors]);
    }
  }
  return c;
}

cost::KernelCounters time_model_counters(const json& launch) {
  if (!launch.contains("metrics") || !launch["metrics"].is_object())
    throw std::runtime_error("launch: missing object \"metrics\"");
  LaunchShape shape;
  shape.kernel = launch.value("kernel", "");
  shape.blocks = dim3_product(launch, "grid");
  shape.threads_per_block = dim3_product(launch, "block");
  shape.shared_bytes_per_block = launch.value("dynamic_shared_bytes", 0.0) + launch.value("static_shared_bytes", 0.0);
  std::vector<GlobalSite> sites;
  if (launch.contains("global_sites")) sites = sites_from_json(launch["global_sites"]);
  else if (launch.contains("lines")) sites = sites_from_lines(launch["lines"]);
  std::vector<cost::SharedSite> shared;
  if (launch.contains("shared_sites")) shared = shared_sites_from_json(launch["shared_sites"]);
  return time_model_counters(shape, counters_from_metrics(launch["metrics"]), std::move(sites), std::move(shared));
}

cost::RooflineInput roofline_input(const LaunchRecord& r) {
  const Counters& c = r.totals;
  const std::uint64_t fp64 = c[Counter::DAdd] + c[Counter::DMul] + 2 * c[Counter::DFma];
  const std::uint64_t fp16 = c.half_flops();
  cost::RooflineInput in;
  in.flops = static_cast<double>(c.flops());
  in.precision = cost::dominant_precision(double(c.flops() - fp64 - fp16), double(fp64), double(fp16));
  in.dram_bytes = static_cast<double>(c.dram_bytes());
  return in;
}

cost::KernelCounters time_model_counters(const LaunchRecord& r) {
  const LaunchShape shape{r.kernel, double(volume(r.grid)), double(volume(r.block)),
                          double(r.dynamic_shared_bytes + r.static_shared_bytes)};
  return time_model_counters(shape, r.totals, sites_from_json(global_sites_json(r)),
                             shared_sites_from_json(shared_sites_json(r)));
}

json kernel_time_json(const cost::KernelTime& t) {
  json terms = json::array(), levels = json::array();
  for (const cost::TimeTerm& term : t.terms) terms.push_back(term_json(term));
  for (const cost::MemoryLevelPoint& l : t.levels)
    levels.push_back({{"name", l.name}, {"bytes", l.bytes}, {"bandwidth", l.bandwidth}, {"intensity", l.intensity}});
  const cost::Occupancy& o = t.occupancy;
  return {{"device", t.device},
          {"predicted_s", t.predicted_s},
          {"bound", t.bound},
          {"sentence", t.sentence},
          {"launch_overhead_s", t.launch_overhead_s},
          {"fill_s", t.fill_s},
          {"fill_what", t.fill_what},
          {"flops", t.flops},
          {"peak_fp32_flops", t.peak_fp32_flops},
          {"occupancy",
           {{"resident_blocks_per_sm", o.resident_blocks}, {"limiter", o.limiter}, {"waves", o.waves},
            {"busiest_sm_blocks", o.busiest_sm_blocks}, {"busy_sms", o.busy_sms}}},
          {"terms", terms},
          {"levels", levels}};
}

std::string kernel_time_text(const cost::KernelTime& t) {
  std::vector<const cost::TimeTerm*> sorted;
  for (const cost::TimeTerm& term : t.terms) sorted.push_back(&term);
  std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->seconds > b->seconds; });
  std::string next;
  for (std::size_t i = 1; i < std::min<std::size_t>(4, sorted.size()); ++i)
    if (sorted[i]->seconds > 0)
      next += fmt::format("{}{} {}", next.empty() ? "" : ", ", sorted[i]->name, cost::format_seconds(sorted[i]->seconds));
  const std::string fill = cost::fill_suffix(t);
  return fmt::format("  time on {}: {} = {} launch + {}{}\n  next: {}; {} blocks/SM ({}), {:g} wave{}\n", t.device,
                     cost::format_seconds(t.predicted_s), cost::format_seconds(t.launch_overhead_s), t.sentence, fill,
                     next.empty() ? "none" : next, t.occupancy.resident_blocks, t.occupancy.limiter, t.occupancy.waves,
                     t.occupancy.waves == 1 ? "" : "s");
}

json launch_time_json(const cost::DeviceSpec& device, const LaunchRecord& r) {
  try {
    return {{"time", kernel_time_json(cost::kernel_time(device, time_model_counters(r)))}};
  } catch (const std::invalid_argument& e) {
    return {{"time", nullptr}, {"time_unavailable", e.what()}};
  }
}

std::string launch_time_text(const cost::DeviceSpec& device, const LaunchRecord& r) {
  try {
    return kernel_time_text(cost::kernel_time(device, time_model_counters(r)));
  } catch (const std::invalid_argument& e) {
    return fmt::format("  time on {}: not available ({})\n", device.name, e.what());
  }
}

}  // namespace simt::timing
