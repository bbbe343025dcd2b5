// simt table | compare: the instructor's tables — kernel versions side by side,
// counted and timed. The rows come from the built-in kernels (run here, as `simt
// run` runs them) or from .cu files (built and run as `simt exec` does); the table
// itself is ladder_table.cpp's.
#include "commands.hpp"
#include "exit_codes.hpp"
#include "ladder_table.hpp"
#include "options.hpp"
#include "program_build.hpp"
#include "run_options.hpp"
#include "timing/simulated_device.hpp"

#include "cost/catalog/catalog.hpp"
#include "kernels/harness.hpp"
#include "sim/cuda/runtime.hpp"
#include "sim/exec/executor.hpp"
#include "sim/options/runtime_options.hpp"
#include "sim/report/report.hpp"
#include "sim/shortcuts/launch.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <set>

namespace simt::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct TableArgs {
  std::vector<std::string> items, params, devices;
  std::string metrics, format = "text";
};

bool is_cuda_file(const std::string& item) { return item.size() > 3 && item.substr(item.size() - 3) == ".cu"; }

// --param n=1024,4096 --param block=256: every combination, in order.
std::vector<std::map<std::string, std::string>> param_sets(const std::vector<std::string>& given) {
  std::vector<std::map<std::string, std::string>> sets = {{}};
  for (const std::string& p : given) {
    const auto eq = p.find('=');
    if (eq == std::string::npos || eq == 0) throw std::invalid_argument(fmt::format("--param {}: expected NAME=VALUE[,VALUE...]", p));
    std::vector<std::map<std::string, std::string>> next;
    std::istringstream values(p.substr(eq + 1));
    std::string v;
    std::vector<std::string> all;
    while (std::getline(values, v, ',')) all.push_back(v);
    if (all.empty()) throw std::invalid_argument(fmt::format("--param {}: no value", p));
    for (const auto& s : sets)
      for (const std::string& value : all) {
        auto t = s;
        t[p.substr(0, eq)] = value;
        next.push_back(std::move(t));
      }
    sets = std::move(next);
  }
  return sets;
}

json run_builtin(const kernels::KernelSpec& spec, const kernels::Params& params) {
  clear_launch_records();
  kernels::Outputs out = spec.run(params);
  json launches = json::array();
  for (const LaunchRecord& r : launch_records()) {
    if (r.error) throw std::runtime_error(fmt::format("{}: a launch failed (simt run {} shows why)", spec.name, spec.name));
    launches.push_back(launch_json(r));
  }
  if (spec.check && !spec.check(params, out).ok)
    throw std::runtime_error(fmt::format("{}: the output does not match its reference (simt run {})", spec.name, spec.name));
  return launches;
}

json run_file(const std::string& file) {
  const fs::path dir = fs::temp_directory_path();
  const fs::path report = dir / fmt::format("simt-table-{}.json", getpid());
  const fs::path output = dir / fmt::format("simt-table-{}.out", getpid());
  Options o = runtime_options();
  o.report = ReportKind::none;
  o.report_json = report.string();
  export_options(o);
  const BuildProduct p = build_program({file, false, {}, {}});
  const int status = run_program(p.path, {}, output.string());
  std::ifstream f(report);
  json launches = f ? json::parse(f, nullptr, false) : json();
  fs::remove(report);
  fs::remove(output);
  if (status != 0) throw std::runtime_error(fmt::format("{} exited {} (simt exec {} shows why)", file, status, file));
  if (!launches.is_array()) throw std::runtime_error(fmt::format("{} left no launch report", file));
  return launches;
}

// One row per kernel version and parameter set; a .cu file gives one row per kernel it launches.
std::vector<TableRow> collect_rows(const TableArgs& a) {
  const auto sets = param_sets(a.params);
  std::set<std::string> used;
  std::vector<TableRow> rows;
  for (const std::string& item : a.items) {
    if (is_cuda_file(item)) {
      fmt::print(stderr, "simt table: building and running {}\n", item);
      std::map<std::string, json> by_kernel;
      std::vector<std::string> order;
      for (const json& l : run_file(item)) {
        const std::string k = l.value("kernel", "?");
        if (!by_kernel.count(k)) order.push_back(k), by_kernel[k] = json::array();
        by_kernel[k].push_back(l);
      }
      for (const std::string& k : order) rows.push_back({fmt::format("{}: {}", fs::path(item).stem().string(), k), by_kernel[k]});
      continue;
    }
    const kernels::KernelSpec& spec = kernels::find_kernel(item);
    for (const auto& set : sets) {
      std::map<std::string, std::string> mine;
      std::string label = spec.name;
      for (const auto& [k, v] : set)
        for (const auto& p : spec.params) {
          if (p.name != k) continue;
          mine[k] = v;
          used.insert(k);
          if (sets.size() > 1) label += fmt::format(" {}={}", k, v);  // the rows differ by their sizes
        }
      fmt::print(stderr, "simt table: running {}\n", label);
      rows.push_back({label, run_builtin(spec, kernels::with_defaults(spec, mine))});
    }
  }
  // A parameter no built-in kernel takes is a typo (.cu files take none).
  const bool any_builtin = !std::all_of(a.items.begin(), a.items.end(), is_cuda_file);
  for (const auto& set : sets)
    for (const auto& [k, v] : set)
      if (any_builtin && !used.count(k))
        throw std::invalid_argument(fmt::format("--param {}: none of the kernels has a parameter '{}' (simt list)", k, k));
  return rows;
}

int run_table(TableArgs a, bool compare) {
  if (a.devices.empty()) a.devices = {"H200"};
  for (const std::string& d : a.devices) cost::Catalog::builtin().device(d);  // unknown names fail before any run
  const auto columns = parse_columns(a.metrics.empty() ? default_columns() : a.metrics, a.devices);
  const TableFormat format = parse_table_format(a.format);
  Options o = runtime_options();
  o.device = a.devices.front();
  use_options(o);
  device_limits() = timing::simulated_device_limits(o.device);
  set_report_faults(false);
  const auto rows = collect_rows(a);
  fmt::print("{}", format_table(columns, rows, format, compare ? 0 : -1));
  return kExitOk;
}

void add_table_options(CLI::App* cmd, TableArgs& a) {
  cmd->add_option("--param", a.params, "a kernel parameter for every kernel that has it: NAME=VALUE, or "
                                       "NAME=V1,V2 for one row per value (repeatable)");
  cmd->add_option("--device,-d", a.devices, "predict times on these catalog devices (repeatable; default H200)");
  cmd->add_option("--metrics", a.metrics, "columns, comma-separated (default: " + default_columns() + ")");
  cmd->add_option("--format", a.format, "text, markdown, csv, latex or json (raw numbers, for plots/ladder.py)")->capture_default_str();
  cmd->footer("Columns:\n" + column_names_help());
}

}  // namespace

void add_table_commands(CLI::App& app) {
  auto t = std::make_shared<TableArgs>();
  auto* table = app.add_subcommand("table", "Kernel versions side by side: counters and predicted times, for handouts");
  table->add_option("kernels", t->items, "built-in kernels (simt list) and/or .cu files")->required();
  add_table_options(table, *t);
  table->callback([t] { throw CLI::RuntimeError(run_table(*t, false)); });

  auto c = std::make_shared<TableArgs>();
  auto* compare = app.add_subcommand("compare", "Two kernel versions side by side, each cell with its ratio to the first");
  compare->add_option("kernels", c->items, "two built-in kernels or .cu files")->required()->expected(2);
  add_table_options(compare, *c);
  compare->callback([c] { throw CLI::RuntimeError(run_table(*c, true)); });
}

}  // namespace simt::cli
