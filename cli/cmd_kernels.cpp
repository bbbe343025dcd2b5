// simt list | run | metrics: the course kernels on the simulated device.
// Glue only: kernels/ runs and checks, sim/ counts, cost/ turns counts into time.
#include "commands.hpp"
#include "exit_codes.hpp"
#include "options.hpp"
#include "sim/report/launch_progress.hpp"
#include "run_options.hpp"
#include "timing/simulated_device.hpp"
#include "timing/time_model_io.hpp"

#include "cost/kernel/roofline.hpp"
#include "kernels/harness.hpp"
#include "sim/shortcuts/launch.hpp"
#include "sim/exec/executor.hpp"
#include "sim/options/runtime_options.hpp"
#include "sim/count/metrics.hpp"
#include "sim/report/report.hpp"
#include "sim/cuda/runtime.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <memory>
#include <stdexcept>

namespace simt::cli {
using namespace simt::timing;  // the time model as the simulated clock uses it (timing/time_model_io.hpp)
namespace {

using nlohmann::json;

void list_kernels(bool as_json) {
  auto& all = kernels::registry();
  if (as_json) {
    json out = json::array();
    for (const auto& k : all) {
      json params = json::array();
      for (const auto& p : k.params) params.push_back({{"name", p.name}, {"default", p.default_value}, {"help", p.help}});
      out.push_back({{"name", k.name}, {"summary", k.summary}, {"params", params}});
    }
    fmt::print("{}\n", out.dump(2));
    return;
  }
  std::size_t w = 6;
  for (const auto& k : all) w = std::max(w, k.name.size());
  for (const auto& k : all) {
    std::string params;
    for (const auto& p : k.params) params += fmt::format(" --{} {}", p.name, p.default_value);
    fmt::print("{:<{}}  {}\n{:<{}}  {}\n", k.name, w, k.summary, "", w, params.empty() ? " (no parameters)" : params);
  }
}

// "--n 4096 --block=128" -> {n: 4096, block: 128}; anything else is an error.
std::map<std::string, std::string> parse_kernel_params(const std::vector<std::string>& extras) {
  std::map<std::string, std::string> out;
  for (std::size_t i = 0; i < extras.size(); ++i) {
    const std::string& a = extras[i];
    if (a.rfind("--", 0) != 0 || a.size() < 3)
      throw std::invalid_argument(fmt::format("unexpected argument '{}' (kernel parameters are --name value)", a));
    std::string name = a.substr(2), value;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    } else {
      if (i + 1 >= extras.size()) throw std::invalid_argument(fmt::format("parameter --{} needs a value", name));
      value = extras[++i];
    }
    out[name] = value;
  }
  return out;
}

std::string roofline_line(const cost::DeviceSpec& dev, const LaunchRecord& launch) {
  cost::RooflineInput in = roofline_input(launch);
  if (in.flops == 0 && in.dram_bytes == 0) return "  roofline: no FLOPs and no DRAM traffic counted\n";
  cost::RooflineResult r = cost::roofline(dev, in);
  return fmt::format(
      "  roofline bound on {}: {:.3g} us, {}-bound ({:.3g} FLOP/B vs ridge {:.3g}; compute {:.3g} us at {:.4g} TFLOP/s "
      "{}, DRAM {:.3g} us at {:.4g} TB/s)\n",
      dev.name, r.time_s * 1e6, r.bound, r.intensity, r.ridge, r.compute_s * 1e6, r.peak_flops / 1e12, r.precision,
      r.memory_s * 1e6, r.bandwidth / 1e12);
}

json roofline_json(const cost::DeviceSpec& dev, const LaunchRecord& launch) {
  cost::RooflineInput in = roofline_input(launch);
  if (in.flops == 0 && in.dram_bytes == 0) return nullptr;
  cost::RooflineResult r = cost::roofline(dev, in);
  return {{"device", dev.name}, {"time_s", r.time_s}, {"bound", r.bound}, {"compute_s", r.compute_s},
          {"memory_s", r.memory_s}, {"intensity", r.intensity}, {"ridge", r.ridge}, {"precision", r.precision},
          {"calibrated_s", r.calibrated_s > 0 ? json(r.calibrated_s) : json(nullptr)}};
}

struct RunOptions {
  std::string kernel;
  std::string device = "H200";
  bool json = false;
  unsigned threads = 0;
  std::size_t lines = 6;
  bool no_races = false;
  bool exact = false;
  OptionItems flags;  // the runtime options given as flags, over $SIMT_OPTIONS (run_options.hpp)
  std::vector<std::string> extras;
};

int run_kernel(const RunOptions& o) {
  const kernels::KernelSpec& spec = kernels::find_kernel(o.kernel);
  kernels::Params params = kernels::with_defaults(spec, parse_kernel_params(o.extras));
  use_options(with_flags(runtime_options(), o.flags));
  const cost::DeviceSpec& dev = cost::Catalog::builtin().device(runtime_options().device);
  device_limits() = timing::simulated_device_limits(dev.name);
  set_report_faults(false);
  if (!o.json) show_launch_progress();
  clear_launch_records();

  kernels::Outputs out = spec.run(params);
  const auto& records = launch_records();
  bool failed = false;
  for (const auto& r : records) failed |= r.error != 0;
  kernels::Check check;
  if (!failed && spec.check) check = spec.check(params, out);
  else check.detail = failed ? "not checked: a launch failed" : "no reference";

  if (o.json) {
    json arr = json::array();
    for (const auto& r : records) {
      json j = launch_json(r);
      j["check"] = {{"ok", !failed && check.ok}, {"max_abs_err", check.max_abs_err}, {"detail", check.detail}};
      j["roofline"] = r.error ? json(nullptr) : roofline_json(dev, r);
      if (r.error) j["time"] = nullptr;
      else j.update(launch_time_json(dev, r));
      arr.push_back(j);
    }
    fmt::print("{}\n", arr.dump(2));
  } else {
    std::string ps;
    for (auto& [k, v] : params.values()) ps += fmt::format(" --{} {}", k, v);
    fmt::print("simt run {}{}  (simulated {}, {} launch{})\n\n", spec.name, ps, dev.name, records.size(),
               records.size() == 1 ? "" : "es");
    for (const auto& r : records) {
      if (r.error) {
        for (const auto& d : r.diagnostics) fmt::print("{}\n\n", format_diagnostic(d));
        continue;
      }
      fmt::print("{}\n{}", counter_table(r), hot_lines_table(r, o.lines));
      fmt::print("{}{}\n", launch_time_text(dev, r), roofline_line(dev, r));
    }
    fmt::print("check: {} — {}\n", failed ? "FAILED" : check.ok ? "OK" : "MISMATCH", check.detail);
  }
  return failed || !check.ok ? kExitFailed : kExitOk;
}

void print_metrics(bool as_json) {
  if (as_json) {
    json out = json::array();
    for (const MetricInfo& m : metric_catalog())
      out.push_back({{"name", m.name}, {"fidelity", fidelity_name(m.fidelity)}, {"description", m.description}});
    for (const DerivedMetricInfo& m : derived_metric_catalog())
      out.push_back({{"name", m.name}, {"fidelity", fidelity_name(m.fidelity)}, {"description", m.description}});
    fmt::print("{}\n", out.dump(2));
    return;
  }
  fmt::print("{:<58} {:<9} {}\n", "metric (Nsight Compute name; simt__* = simtlab's own)", "fidelity", "definition");
  for (const MetricInfo& m : metric_catalog())
    fmt::print("{:<58} {:<9} {}\n", m.name, fidelity_name(m.fidelity), m.description);
  for (const DerivedMetricInfo& m : derived_metric_catalog())
    fmt::print("{:<58} {:<9} {}\n", m.name, fidelity_name(m.fidelity), m.description);
  fmt::print("\nexact: equals Nsight Compute for the access pattern in the source (docs/counters.md, Fidelity limits)\n"
             "estimate: a model of cache behaviour, not a count; simtlab: no ncu equivalent\n");
}

}  // namespace

void add_kernel_commands(CLI::App& app) {
  auto* list = app.add_subcommand("list", "List the built-in kernels, their parameters and defaults");
  auto list_json = std::make_shared<bool>(false);
  list->add_flag("--json", *list_json, "Print a JSON array of {name, summary, params}");
  list->callback([list_json] { list_kernels(*list_json); });

  auto* run = app.add_subcommand("run", "Run a built-in kernel on the simulated device; check it; print its counters");
  auto o = std::make_shared<RunOptions>();
  run->add_option("kernel", o->kernel, "Kernel name (see simt list)")->required();
  add_device_option(run, o->device, "Simulated device from the catalog (simt devices)")->capture_default_str();
  run->add_flag("--json", o->json, "Print one JSON object per launch");
  add_count_option(run, "--threads", o->threads, "Host threads to run blocks on (0 = all cores)", 0, 4096);
  add_count_option(run, "--lines", o->lines, "Hottest source lines to show", 0, 1000);
  run->add_flag("--no-races", o->no_races, "Skip race detection (faster)");
  run->add_flag("--exact", o->exact,
                "Count every block of a launch however long it takes (else a launch past 60 s is sampled; "
                "docs/exec.md, 'Sampled launches')");
  run->allow_extras();
  run->footer("Kernel parameters follow as --name value (simt list shows each kernel's).");
  run->footer(run->get_footer() + "\nThe runtime options of SIMT_OPTIONS apply too (simt help exec lists them).");
  run->callback([o, run] {
    add_if_given(o->flags, run, "--device", "device", o->device);
    add_if_given(o->flags, run, "--threads", "threads", std::to_string(o->threads));
    add_if_given(o->flags, run, "--no-races", "races", "off");
    add_if_given(o->flags, run, "--exact", "exact", "1");
    o->extras = run->remaining();
    int rc = run_kernel(*o);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });

  auto* metrics = app.add_subcommand("metrics", "The counter catalog: Nsight Compute names and definitions");
  auto metrics_json = std::make_shared<bool>(false);
  metrics->add_flag("--json", *metrics_json, "Print as JSON");
  metrics->callback([metrics_json] { print_metrics(*metrics_json); });
}

}  // namespace simt::cli
