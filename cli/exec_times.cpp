#include "exec_times.hpp"

#include "timing/time_model_io.hpp"

#include "cost/catalog.hpp"
#include "cost/kernel_time.hpp"
#include "cost/units.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <stdexcept>
#include <utility>

namespace simt::cli {
using namespace simt::timing;  // the time model as the simulated clock uses it (timing/time_model_io.hpp)

namespace {

using nlohmann::json;

// The clock inside the program priced the launch with the same model: a
// difference means two sources of truth, which must never be.
void check_against_clock(const json& launch, double predicted_s, std::size_t number) {
  if (!launch.contains("clock")) return;
  const double clock_s = launch["clock"].value("seconds", 0.0);
  if (std::abs(clock_s - predicted_s) > 1e-9 * std::max(1.0, predicted_s) + 1e-15)
    fmt::print(stderr, "simt exec: launch {}: the program's clock says {} but the time model {}\n", number,
               cost::format_seconds(clock_s), cost::format_seconds(predicted_s));
}

// Adds "time" to every launch that ran; returns the table and the total. A run
// of repeats (launches not re-executed) is one line.
std::pair<std::string, double> add_times(json& launches, const cost::DeviceSpec& dev) {
  double total = 0;
  std::string table;
  std::map<std::size_t, double> time_of;  // launch number -> seconds, for its repeats
  std::size_t run_first = 0, run_count = 0, run_of = 0, run_deferred = 0, run_ran_late = 0, run_replayed = 0;
  bool run_inexact = false;
  auto how = [&] {
    if (run_inexact) return std::string("not re-executed; they change memory: --skip-all-repeats");
    std::string how = "not re-executed";
    if (run_deferred) how = fmt::format("{} deferred until their output was read: {} ran", run_deferred, run_ran_late);
    if (run_replayed) how += fmt::format(", {} replayed from the same inputs", run_replayed);
    return how;
  };
  auto flush_run = [&] {
    if (run_count)
      table += fmt::format("[launch {}{}] {}x the same as launch {} ({}): {} each\n", run_first,
                           run_count > 1 ? fmt::format("-{}", run_first + run_count - 1) : "", run_count, run_of,
                           how(), cost::format_seconds(time_of[run_of]));
    run_count = 0;
    run_deferred = run_ran_late = run_replayed = 0;
    run_inexact = false;
  };
  for (std::size_t i = 0; i < launches.size(); ++i) {
    json& l = launches[i];
    if (l.value("error", 0) != 0) continue;
    const std::size_t of = l.value("repeat_of", std::size_t{0});
    if (of && time_of.contains(of)) {
      l["time"] = launches[of - 1]["time"];
      total += time_of[of];
      if (!run_count || run_of != of || run_first + run_count != i + 1) {
        flush_run();
        run_first = i + 1, run_of = of;
      }
      ++run_count;
      run_inexact = run_inexact || l.value("repeat_inexact", false);
      run_deferred += l.value("deferred", false);
      run_ran_late += l.value("ran_late", false);
      run_replayed += l.value("replayed", false);
      continue;
    }
    flush_run();
    cost::KernelTime t = cost::kernel_time(dev, time_model_counters(l));
    check_against_clock(l, t.predicted_s, i + 1);
    l["time"] = kernel_time_json(t);
    time_of[i + 1] = t.predicted_s;
    total += t.predicted_s;
    table += fmt::format("[launch {}] {}: {} = {} launch + {}{}\n", i + 1, l.value("kernel", "?"),
                         cost::format_seconds(t.predicted_s), cost::format_seconds(t.launch_overhead_s), t.sentence,
                         cost::fill_suffix(t));
  }
  flush_run();
  return {table, total};
}

// One line from the program's timeline: how much of each kind of work, and when
// the last of it ends (streams may overlap copies with kernels).
std::string clock_summary(const std::string& timeline_path) {
  std::ifstream in(timeline_path);
  if (!in) return "";
  json trace = json::parse(in, nullptr, false);
  if (!trace.is_object() || !trace.contains("traceEvents")) return "";
  std::map<std::string, std::pair<std::size_t, double>> by_kind;  // cat -> (count, us)
  double end_us = 0;
  std::size_t streams = 0;
  for (const json& e : trace["traceEvents"]) {
    if (e.value("ph", "") == "M") {
      streams += e.value("name", "") == "thread_name";
      continue;
    }
    auto& [n, us] = by_kind[e.value("cat", "?")];
    ++n;
    us += e.value("dur", 0.0);
    end_us = std::max(end_us, e.value("ts", 0.0) + e.value("dur", 0.0));
  }
  std::string parts;
  for (auto& [kind, v] : by_kind)
    parts += fmt::format("{}{} x {} {}", parts.empty() ? "" : ", ", kind, v.first, cost::format_seconds(v.second * 1e-6));
  if (parts.empty()) return "";
  return fmt::format("simulated clock: {}; the last ends at {} ({} stream{}; cudaEventElapsedTime reads this clock)\n",
                     parts, cost::format_seconds(end_us * 1e-6), streams, streams == 1 ? "" : "s");
}

}  // namespace

void report_kernel_times(const std::string& report_path, const std::string& timeline_path, const std::string& device,
                         bool json_to_stderr, bool rewrite) {
  std::ifstream in(report_path);
  if (!in) return;  // the program died before writing its report: nothing to time
  json launches = json::parse(in, nullptr, false);
  if (!launches.is_array()) return;
  const cost::DeviceSpec& dev = cost::Catalog::builtin().device(device);
  std::string summary;
  try {
    auto [table, total] = add_times(launches, dev);
    summary = fmt::format("\n== simt: kernel time on {} (docs/cost-model.md, 'Kernel time') ==\n{}total {} ({} launch{} "
                          "one after another)\n{}",
                          dev.name, table, cost::format_seconds(total), launches.size(),
                          launches.size() == 1 ? "" : "es", clock_summary(timeline_path));
  } catch (const std::invalid_argument& e) {
    summary = fmt::format("\n== simt: kernel time on {}: not available ({}) ==\n", dev.name, e.what());
  }
  if (rewrite) std::ofstream(report_path) << launches.dump(2) << "\n";
  if (json_to_stderr) fmt::print(stderr, "{}\n", launches.dump(2));
  else fmt::print(stderr, "{}", summary);
}

}  // namespace simt::cli
