#include "exec_times.hpp"

#include "time_model_io.hpp"

#include "cost/catalog.hpp"
#include "cost/kernel_time.hpp"
#include "cost/units.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <stdexcept>
#include <utility>

namespace simt::cli {

namespace {

// Adds "time" to every launch that ran; returns the table and the total.
std::pair<std::string, double> add_times(nlohmann::json& launches, const cost::DeviceSpec& dev) {
  double total = 0;
  std::string table;
  for (std::size_t i = 0; i < launches.size(); ++i) {
    nlohmann::json& l = launches[i];
    if (l.value("error", 0) != 0) continue;
    cost::KernelTime t = cost::kernel_time(dev, time_model_counters(l));
    l["time"] = kernel_time_json(t);
    total += t.predicted_s;
    table += fmt::format("[launch {}] {}: {} = {} launch + {}{}\n", i + 1, l.value("kernel", "?"),
                         cost::format_seconds(t.predicted_s), cost::format_seconds(t.launch_overhead_s), t.sentence,
                         t.fill_s > 0 ? fmt::format(" + {} fill", cost::format_seconds(t.fill_s)) : "");
  }
  return {table, total};
}

}  // namespace

void report_kernel_times(const std::string& report_path, const std::string& device, bool json_to_stderr,
                         bool rewrite) {
  std::ifstream in(report_path);
  if (!in) return;  // the program died before writing its report: nothing to time
  nlohmann::json launches = nlohmann::json::parse(in, nullptr, false);
  if (!launches.is_array()) return;
  const cost::DeviceSpec& dev = cost::Catalog::builtin().device(device);
  std::string summary;
  try {
    auto [table, total] = add_times(launches, dev);
    summary = fmt::format("\n== simt: kernel time on {} (docs/cost-model.md, 'Kernel time') ==\n{}total {} ({} launch{} "
                          "one after another)\n",
                          dev.name, table, cost::format_seconds(total), launches.size(),
                          launches.size() == 1 ? "" : "es");
  } catch (const std::invalid_argument& e) {
    summary = fmt::format("\n== simt: kernel time on {}: not available ({}) ==\n", dev.name, e.what());
  }
  if (rewrite) std::ofstream(report_path) << launches.dump(2) << "\n";
  if (json_to_stderr) fmt::print(stderr, "{}\n", launches.dump(2));
  else fmt::print(stderr, "{}", summary);
}

}  // namespace simt::cli
