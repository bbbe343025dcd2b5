// simt devices | links | device show NAME | roofline: the catalog and the roofline on the
// command line. Glue only: the numbers come from cost/.
#include "commands.hpp"
#include "options.hpp"

#include "timing/time_model_io.hpp"

#include "cost/catalog/catalog.hpp"
#include "cost/catalog/json.hpp"
#include "cost/catalog/table.hpp"
#include "cost/catalog/units.hpp"
#include "cost/kernel/json.hpp"
#include "cost/kernel/kernel_time.hpp"
#include "cost/kernel/roofline.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <memory>
#include <stdexcept>

namespace simt::cli {
using namespace simt::timing;  // the time model as the simulated clock uses it (timing/time_model_io.hpp)
namespace {

using namespace simt::cost;
using nlohmann::json;

std::string peak_cell(const DeviceSpec& d, const char* key) {
  auto it = d.peak.find(key);
  return it == d.peak.end() ? "-" : fmt::format("{:g}", it->second.value / 1e12);
}

std::string or_dash(double v, double scale, const char* fmtstr = "{:g}") {
  return v > 0 ? fmt::format(fmt::runtime(fmtstr), v / scale) : "-";
}

std::string links_table(const Catalog& c) {
  Table links({"link", "GB/s per dir>", "latency us>", "description"});
  for (const LinkSpec& l : c.links())
    links.add({l.name, fmt::format("{:g}", l.bandwidth / 1e9), fmt::format("{:g}", l.latency_s * 1e6), l.full_name});
  return links.str();
}

// TPU chips: no SMs and no FP32 CUDA cores; what the LLM cost model uses.
std::string tpus_table(const Catalog& c) {
  Table t({"name", "generation", "mem GiB>", "BW GB/s>", "BF16>", "INT8>", "FP8>", "TDP W>", "$/chip-hour>"});
  for (const DeviceSpec& d : c.tpus())
    t.add({d.name, d.arch, or_dash(d.hbm_bytes, 1 << 30), or_dash(d.hbm_bandwidth, 1e9), peak_cell(d, "bf16"),
           peak_cell(d, "int8"), peak_cell(d, "fp8"), or_dash(d.tdp_watts, 1), or_dash(d.price_per_hour_usd, 1)});
  return t.str();
}

void list_devices(bool as_json) {
  const Catalog& c = Catalog::builtin();
  if (as_json) {
    json out = json::array();
    for (const DeviceSpec& d : c.devices()) out.push_back(to_json(d));
    for (const DeviceSpec& d : c.tpus()) out.push_back(to_json(d));
    fmt::print("{}\n", out.dump(2));
    return;
  }
  Table t({"name", "arch", "SMs>", "mem GiB>", "BW GB/s>", "L2 MiB>", "FP64>", "FP32>", "FP16 CC>", "TF32>",
           "FP16>", "BF16>", "FP8>", "INT8>", "TDP W>"});
  for (const DeviceSpec& d : c.devices())
    t.add({d.name, d.arch, or_dash(d.sm_count, 1), or_dash(d.hbm_bytes, 1 << 30),
           or_dash(d.hbm_bandwidth, 1e9), or_dash(d.l2_bytes, 1 << 20), peak_cell(d, "fp64"),
           peak_cell(d, "fp32"), peak_cell(d, "fp16_cuda_cores"), peak_cell(d, "tf32"), peak_cell(d, "fp16"),
           peak_cell(d, "bf16"),
           peak_cell(d, "fp8"), peak_cell(d, "int8"), or_dash(d.tdp_watts, 1)});
  fmt::print("{}", t.str());
  fmt::print("Peaks in dense TFLOP/s (INT8: TOP/s); FP64, FP32 and FP16 CC (fp16/bf16 without tensor cores) on CUDA\n"
             "cores, the rest on Tensor Cores.\n"
             "2:4-sparse figures are 2x and not used. '-' = not published / no such unit.\n"
             "Sources: `simt device show NAME`. Catalog: {}\n",
             c.origin());
  if (!c.tpus().empty())
    fmt::print("\nTPUs (budget and serve-sim take them as --device NAME; peaks in dense TFLOP/s):\n{}", tpus_table(c));
  fmt::print("\nLinks (`simt links` for sources):\n{}", links_table(c));
}

void list_links(bool as_json) {
  const Catalog& c = Catalog::builtin();
  if (as_json) {
    json out = json::array();
    for (const LinkSpec& l : c.links()) out.push_back(to_json(l));
    fmt::print("{}\n", out.dump(2));
    return;
  }
  fmt::print("{}", links_table(c));
  for (const LinkSpec& l : c.links())
    for (auto& [key, f] : l.fields)
      fmt::print("{} {}: {} <- {}{}\n", l.name, key, f.value, f.source, f.note.empty() ? "" : "; " + f.note);
}

// A TPU chip is in the catalog for the LLM cost model only: say so where a GPU
// would show its compute capability, so nobody tries `simt exec -d TPU-v5p`.
bool is_tpu(const Catalog& c, const DeviceSpec& d) {
  for (const DeviceSpec& t : c.tpus())
    if (&t == &d) return true;
  return false;
}

void show_device(const std::string& name, bool as_json) {
  const Catalog& c = Catalog::builtin();
  const DeviceSpec& d = c.accelerator(name);  // every name `simt devices` lists, TPUs too
  if (as_json) {
    fmt::print("{}\n", to_json(d).dump(2));
    return;
  }
  if (is_tpu(c, d))
    fmt::print("{}: {} ({}; an accelerator without a SIMT model: budget and serve-sim price it, exec and run cannot "
               "simulate it)\n\n",
               d.name, d.full_name, d.arch);
  else
    fmt::print("{}: {} ({}, compute capability {})\n\n", d.name, d.full_name, d.arch, d.compute_capability);
  // Sources are long (title and URL): number them and list them once below.
  std::vector<std::string> sources;
  auto ref = [&](const std::string& src) {
    auto it = std::find(sources.begin(), sources.end(), src);
    if (it == sources.end()) it = sources.insert(sources.end(), src);
    return fmt::format("[{}]", it - sources.begin() + 1);
  };
  Table t({"field", "value>", "src", "note"});
  for (auto& [key, f] : d.fields)
    t.add({key, f.value > 0 ? fmt::format("{:g}", f.value) : "n/a", ref(f.source), f.note});
  fmt::print("{}\nSources:\n", t.str());
  for (std::size_t i = 0; i < sources.size(); ++i) fmt::print("  [{}] {}\n", i + 1, sources[i]);
  fmt::print("\nRidge points (peak / HBM bandwidth, FLOP per byte):");
  for (auto& [key, p] : d.peak) fmt::print(" {} {:.1f};", key, p.value / d.hbm_bandwidth);
  fmt::print("\n");
}

// ---- roofline ------------------------------------------------------------

struct RooflineOptions {
  std::string device;
  std::string flops, bytes, l2_bytes, l2_bandwidth;
  std::string dtype;
  std::string counters;
  bool json = false;
  bool explain = false;
};

void print_result(const DeviceSpec& d, const RooflineResult& r, const std::string& title) {
  fmt::print("{} on {} ({}), {}\n", title, d.name, d.full_name, r.precision);
  Table t({"term", "value>", "detail"});
  t.add({"compute", format_seconds(r.compute_s), fmt::format("FLOPs / {}", format_rate(r.peak_flops, "FLOP/s"))});
  for (const MemoryLevel& m : r.levels)
    t.add({m.name, format_seconds(m.time_s),
           fmt::format("{} / {}", format_bytes(m.bytes), format_rate(m.bandwidth, "B/s"))});
  t.add({"time", format_seconds(r.time_s), fmt::format("bound: {}", r.bound)});
  t.add({"intensity", fmt::format("{:.4g}", r.intensity), fmt::format("FLOP/B (ridge {:.4g})", r.ridge)});
  t.add({"attainable", format_rate(r.attainable_flops, "FLOP/s"),
         fmt::format("{:.1f}% of peak", 100 * r.attainable_flops / r.peak_flops)});
  fmt::print("{}", t.str());
}

double positive_quantity(const std::string& text, const char* what) {
  double v = parse_quantity(text, what);
  if (v <= 0) throw std::invalid_argument(fmt::format("{} must be > 0, got '{}'", what, text));
  return v;
}

void roofline_explicit(const RooflineOptions& o) {
  if (o.flops.empty() || o.bytes.empty())
    throw std::invalid_argument("roofline needs --flops and --bytes (or --counters FILE)");
  const DeviceSpec& d = Catalog::builtin().device(o.device);
  RooflineInput in;
  in.flops = parse_quantity(o.flops, "--flops");
  in.dram_bytes = positive_quantity(o.bytes, "--bytes");
  in.precision = o.dtype.empty() ? "fp32" : o.dtype;
  if (!o.l2_bytes.empty()) in.l2_bytes = positive_quantity(o.l2_bytes, "--l2-bytes");
  if (!o.l2_bandwidth.empty()) in.l2_bandwidth = positive_quantity(o.l2_bandwidth, "--l2-bandwidth");
  RooflineResult r = roofline(d, in);
  if (o.json) {
    json j = to_json(r);
    j["device"] = d.name;
    j["flops"] = in.flops;
    j["bytes"] = in.dram_bytes;
    if (o.explain) j["explanation"] = r.explanation;
    fmt::print("{}\n", j.dump(2));
    return;
  }
  print_result(d, r, "roofline");
  if (o.explain) fmt::print("\n{}", r.explanation);
}

// `simt run --json` prints an array of launches {"kernel", "metrics"}; accept
// also {"launches": [...]} and a single launch object.
json read_launches(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(fmt::format("cannot read counters file '{}'", path));
  json j;
  try {
    j = json::parse(in);
  } catch (const json::parse_error& e) {
    throw std::runtime_error(fmt::format("{}: not valid JSON: {}", path, e.what()));
  }
  if (j.is_object() && j.contains("launches")) j = j["launches"];
  if (j.is_object()) j = json::array({j});
  if (!j.is_array() || j.empty())
    throw std::runtime_error(fmt::format("{}: expected an array of launches {{\"kernel\", \"metrics\"}}", path));
  return j;
}

Metrics metrics_of(const json& launch, const std::string& path, std::size_t i) {
  if (!launch.is_object() || !launch.contains("metrics") || !launch["metrics"].is_object())
    throw std::runtime_error(fmt::format("{}: launch [{}]: missing object \"metrics\"", path, i));
  Metrics m;
  for (auto& [k, v] : launch["metrics"].items()) {
    if (!v.is_number_integer())
      throw std::runtime_error(fmt::format("{}: launch [{}]: metric '{}' is not an integer", path, i, k));
    m[k] = v.get<long long>();
  }
  return m;
}

// One launch of a counters file: the kernel time model's answer, with the plain
// roofline bound kept beside it for comparison.
json counters_launch_json(const DeviceSpec& d, const json& launch, const RooflineOptions& o, std::size_t i) {
  Metrics m = metrics_of(launch, o.counters, i);
  std::string kernel = launch.value("kernel", fmt::format("launch {}", i));
  cost::KernelCounters c;
  try {
    c = time_model_counters(launch);
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("{}: launch [{}]: {} (`simt run --json` writes the launch shape)",
                                         o.counters, i, e.what()));
  }
  if (c.kernel.empty()) c.kernel = kernel;
  KernelTime t = kernel_time(d, c);
  json j = kernel_time_json(t);
  j["kernel"] = kernel;
  RooflineInput in = roofline_input_from_metrics(m);
  if (!o.dtype.empty()) in.precision = o.dtype;
  j["flops"] = in.flops;
  j["bytes"] = in.dram_bytes;
  j["bytes_from"] = bytes_origin(m);
  if (in.flops > 0 || in.dram_bytes > 0) {
    json r = to_json(roofline(d, in));
    r.erase("explanation");
    j["roofline"] = r;
  }
  if (o.explain) j["explanation"] = explain(t);
  return j;
}

void roofline_counters(const RooflineOptions& o) {
  const DeviceSpec& d = Catalog::builtin().device(o.device);
  json launches = read_launches(o.counters);
  json out = json::array();
  Table t({"kernel", "time>", "bound", "roofline bound>"});
  double total = 0;
  std::size_t failed = 0;
  for (std::size_t i = 0; i < launches.size(); ++i) {
    // A launch that failed did not run its kernel to the end: it has no time to price.
    if (launches[i].is_object() && launches[i].value("error", 0) != 0) {
      ++failed;
      t.add({launches[i].value("kernel", fmt::format("launch {}", i)), "-", "not priced: the launch failed", "-"});
      out.push_back({{"kernel", launches[i].value("kernel", "")}, {"error", launches[i].value("error", 0)},
                     {"predicted_s", nullptr}});
      continue;
    }
    json j = counters_launch_json(d, launches[i], o, i);
    total += j["predicted_s"].get<double>();
    std::string bound = j["roofline"].is_object() ? format_seconds(j["roofline"]["time_s"].get<double>()) : "-";
    t.add({j["kernel"].get<std::string>(), format_seconds(j["predicted_s"].get<double>()), j["sentence"], bound});
    if (o.explain && !o.json) fmt::print("{}\n", j["explanation"].get<std::string>());
    out.push_back(std::move(j));
  }
  if (o.json) {
    fmt::print("{}\n", json{{"device", d.name}, {"launches", out}, {"total_time_s", total}}.dump(2));
    return;
  }
  fmt::print("kernel time on {} ({}) from {}\n{}", d.name, d.full_name, o.counters, t.str());
  fmt::print("total {} (sum of launches; no overlap between launches assumed{})\n", format_seconds(total),
             failed ? fmt::format("; {} failed launch{} not priced", failed, failed == 1 ? "" : "es") : "");
}

void add_roofline(CLI::App& app) {
  auto o = std::make_shared<RooflineOptions>();
  auto* cmd = app.add_subcommand(
      "roofline", "Time of a kernel on a device: the roofline bound from FLOPs and bytes, or, with --counters, the "
      "kernel time model (every hardware limit, the binding one named)");
  add_device_option(cmd, o->device)->required();
  cmd->add_option("--flops", o->flops, "floating-point operations (e.g. 2e12, 4G)");
  cmd->add_option("--bytes", o->bytes, "DRAM bytes moved (e.g. 1e9, 256MiB)");
  cmd->add_option("--dtype", o->dtype, "precision: fp64 fp32 tf32 fp16 bf16 fp8 int8 (default fp32)")
      ->check(CLI::IsMember({"fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8"}));
  cmd->add_option("--l2-bytes", o->l2_bytes, "optional L2 traffic in bytes: adds an L2 roof");
  cmd->add_option("--l2-bandwidth", o->l2_bandwidth, "L2 bandwidth in bytes/s (NVIDIA publishes none)");
  auto* counters = cmd->add_option("--counters", o->counters, "counter JSON written by `simt run --json`");
  cmd->get_option("--flops")->excludes(counters);
  cmd->get_option("--bytes")->excludes(counters);
  cmd->add_flag("--json", o->json, "print JSON");
  cmd->add_flag("--explain", o->explain, "print the formula, the values plugged in and their sources");
  cmd->callback([o] {
    if (o->counters.empty())
      roofline_explicit(*o);
    else
      roofline_counters(*o);
  });
}

}  // namespace

void add_device_commands(CLI::App& app) {
  auto as_json = std::make_shared<bool>(false);
  auto* devices = app.add_subcommand("devices", "List the device and link catalog (cost/catalog/devices.json)");
  devices->add_flag("--json", *as_json, "print JSON: an array of device objects");
  devices->callback([as_json] { list_devices(*as_json); });

  auto links_json = std::make_shared<bool>(false);
  auto* links = app.add_subcommand("links", "List the interconnects of the catalog with their sources");
  links->add_flag("--json", *links_json, "print JSON: an array of link objects");
  links->callback([links_json] { list_links(*links_json); });

  auto* device = app.add_subcommand("device", "One device of the catalog");
  device->require_subcommand(1);
  auto show = std::make_shared<std::pair<std::string, bool>>();
  auto* cmd = device->add_subcommand("show", "Every field of a device with its source");
  cmd->add_option("name", show->first, "device name")->required();
  cmd->add_flag("--json", show->second, "print JSON");
  cmd->callback([show] { show_device(show->first, show->second); });

  add_roofline(app);
}

}  // namespace simt::cli
