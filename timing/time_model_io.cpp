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

double fp(const json& m, const char* p) {
  auto op = [&](const char* o) { return metric(m, fmt::format("smsp__sass_thread_inst_executed_op_{}{}_pred_on.sum", p, o)); };
  return op("add") + op("mul") + op("fma");
}

double fp_flops(const json& m, const char* p) {
  auto op = [&](const char* o) { return metric(m, fmt::format("smsp__sass_thread_inst_executed_op_{}{}_pred_on.sum", p, o)); };
  return op("add") + op("mul") + 2 * op("fma");
}

double dim3_product(const json& launch, const char* key) {
  auto it = launch.find(key);
  if (it == launch.end() || !it->is_array()) throw std::runtime_error(fmt::format("launch: missing array \"{}\"", key));
  double n = 1;
  for (const json& v : *it) n *= v.get<double>();
  return n;
}

const char* const kOps[] = {"ld", "st", "atom"};

// Sites from per-line metrics: one site per line and kind of access.
std::vector<GlobalSite> sites_from_lines(const json& lines) {
  std::vector<GlobalSite> out;
  for (const json& l : lines) {
    const json& m = l.at("metrics");
    const double warp = metric(m, "simt__warp_inst_counted.sum");
    const double lanes = warp > 0 ? std::clamp(metric(m, "simt__thread_inst_counted.sum") / warp, 1.0, 32.0) : 32;
    for (int k = 0; k < 3; ++k) {
      double req = metric(m, fmt::format("l1tex__t_requests_pipe_lsu_mem_global_op_{}.sum", kOps[k]));
      double sec = metric(m, fmt::format("l1tex__t_sectors_pipe_lsu_mem_global_op_{}.sum", kOps[k]));
      if (req > 0) out.push_back({static_cast<GlobalSite::Op>(k), req, sec, lanes});
    }
  }
  return out;
}

std::vector<GlobalSite> sites_from_json(const json& sites) {
  std::vector<GlobalSite> out;
  for (const json& s : sites) {
    std::string op = s.at("op").get<std::string>();
    int k = op == "ld" ? 0 : op == "st" ? 1 : 2;
    out.push_back({static_cast<GlobalSite::Op>(k), s.at("requests").get<double>(), s.at("sectors").get<double>(),
                   s.value("lanes", 32.0)});
  }
  return out;
}

json metrics_json(const LaunchRecord& r) {
  json m = json::object();
  for (const MetricInfo& info : metric_catalog()) m[info.name] = r.totals[info.counter];
  return m;
}

json term_json(const cost::TimeTerm& t) {
  return {{"name", t.name},     {"what", t.what},       {"time_s", t.seconds}, {"amount", t.amount},
          {"unit", t.unit},     {"detail", t.detail},   {"formula", t.formula}, {"source", t.source}};
}

}  // namespace

cost::KernelCounters time_model_counters(const json& launch) {
  if (!launch.contains("metrics") || !launch["metrics"].is_object())
    throw std::runtime_error("launch: missing object \"metrics\"");
  const json& m = launch["metrics"];
  cost::KernelCounters c;
  c.kernel = launch.value("kernel", "");
  c.blocks = dim3_product(launch, "grid");
  c.threads_per_block = dim3_product(launch, "block");
  c.shared_bytes_per_block = launch.value("dynamic_shared_bytes", 0.0) + launch.value("static_shared_bytes", 0.0);
  auto req = [&](const char* op) { return metric(m, fmt::format("l1tex__t_requests_pipe_lsu_mem_global_op_{}.sum", op)); };
  auto sec = [&](const char* op) { return metric(m, fmt::format("l1tex__t_sectors_pipe_lsu_mem_global_op_{}.sum", op)); };
  c.ld_requests = req("ld"), c.ld_sectors = sec("ld");
  c.st_requests = req("st"), c.st_sectors = sec("st");
  c.atom_requests = req("atom") + req("red"), c.atom_sectors = sec("atom") + sec("red");
  c.shared_ld_inst = metric(m, "smsp__sass_inst_executed_op_shared_ld.sum");
  c.shared_st_inst = metric(m, "smsp__sass_inst_executed_op_shared_st.sum");
  c.shared_atom_inst = metric(m, "smsp__sass_inst_executed_op_shared_atom.sum");
  c.shared_ld_wavefronts = metric(m, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum");
  c.shared_st_wavefronts = metric(m, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum");
  c.fp32_inst = fp(m, "f"), c.fp64_inst = fp(m, "d"), c.fp16_inst = fp(m, "h");
  c.flops = fp_flops(m, "f") + fp_flops(m, "d") + fp_flops(m, "h");
  c.tensor_tf32_flops = metric(m, "simt__tensor_tf32_flops.sum");
  c.tensor_16bit_flops = metric(m, "simt__tensor_16bit_flops.sum");
  c.warp_inst = metric(m, "simt__warp_inst_counted.sum");
  c.thread_inst = metric(m, "simt__thread_inst_counted.sum");
  c.warp_collectives = metric(m, "simt__warp_collectives.sum");
  c.warp_barriers = metric(m, "simt__warp_barriers.sum");
  c.sass_warp_inst = metric(m, "smsp__inst_executed.sum");
  c.sass_thread_inst = metric(m, "smsp__thread_inst_executed.sum");
  c.dram_read_bytes = metric(m, "dram__bytes_read.sum");
  c.dram_write_bytes = metric(m, "dram__bytes_write.sum");
  if (!m.contains("dram__bytes_read.sum") && !m.contains("dram__bytes_write.sum")) {
    if (m.contains("dram__bytes.sum")) {
      c.dram_read_bytes = metric(m, "dram__bytes.sum");
    } else {  // no DRAM estimate: every sector goes to DRAM, as the roofline assumes
      c.dram_read_bytes = 32 * c.ld_sectors;
      c.dram_write_bytes = 32 * (c.st_sectors + c.atom_sectors);
    }
  }
  if (launch.contains("global_sites")) c.sites = sites_from_json(launch["global_sites"]);
  else if (launch.contains("lines")) c.sites = sites_from_lines(launch["lines"]);
  return c;
}

cost::RooflineInput roofline_input(const LaunchRecord& r) {
  const Counters& c = r.totals;
  const std::uint64_t fp64 = c[Counter::DAdd] + c[Counter::DMul] + 2 * c[Counter::DFma];
  cost::RooflineInput in;
  in.flops = static_cast<double>(c.flops());
  in.precision = fp64 > c.flops() - fp64 ? "fp64" : "fp32";  // the precision most FLOPs are in
  in.dram_bytes = static_cast<double>(c.dram_bytes());
  return in;
}

cost::KernelCounters time_model_counters(const LaunchRecord& r) {
  json launch = {{"kernel", r.kernel},
                 {"grid", {r.grid.x, r.grid.y, r.grid.z}},
                 {"block", {r.block.x, r.block.y, r.block.z}},
                 {"dynamic_shared_bytes", r.dynamic_shared_bytes},
                 {"static_shared_bytes", r.static_shared_bytes},
                 {"metrics", metrics_json(r)},
                 {"global_sites", global_sites_json(r)}};
  return time_model_counters(launch);
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
