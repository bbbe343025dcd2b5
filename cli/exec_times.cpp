#include "exec_times.hpp"

#include "time_model_io.hpp"

#include "cost/catalog.hpp"
#include "cost/kernel_time.hpp"
#include "cost/units.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fstream>

namespace simt::cli {

void report_kernel_times(const std::string& report_path, const std::string& device, bool json_to_stderr,
                         bool rewrite) {
  std::ifstream in(report_path);
  if (!in) return;  // the program died before writing its report: nothing to time
  nlohmann::json launches = nlohmann::json::parse(in, nullptr, false);
  if (!launches.is_array()) return;
  const cost::DeviceSpec& dev = cost::Catalog::builtin().device(device);
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
                         t.drain_s > 0 ? fmt::format(" + {} drain", cost::format_seconds(t.drain_s)) : "");
  }
  if (rewrite) std::ofstream(report_path) << launches.dump(2) << "\n";
  if (json_to_stderr) {
    fmt::print(stderr, "{}\n", launches.dump(2));
    return;
  }
  fmt::print(stderr, "\n== simt: kernel time on {} (docs/cost-model.md, 'Kernel time') ==\n{}total {} ({} launch{} "
                     "one after another)\n",
             dev.name, table, cost::format_seconds(total), launches.size(), launches.size() == 1 ? "" : "es");
}

}  // namespace simt::cli
