#include "exec_times.hpp"

#include "cost/catalog/units.hpp"
#include "cost/kernel/kernel_time.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <set>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

namespace simt::cli {

namespace {

using nlohmann::json;

// The time the program's clock gave the launch (sim/report/report.cpp, "time"): the
// model ran once, where the launch ran. A launch it could not price says why.
const json& launch_time(const json& launch) {
  if (launch.contains("time")) return launch["time"];
  const json clock = launch.value("clock", json::object());
  throw std::invalid_argument(clock.contains("unpriced") ? clock["unpriced"].get<std::string>()
                                                         : "the program's report has no time for its launches");
}

// " + 1.2 us fill" where the model added the round trip's fill (cost::fill_suffix).
std::string fill_text(const json& time) {
  cost::KernelTime t;
  t.fill_s = time.value("fill_s", 0.0);
  t.fill_what = time.value("fill_what", "");
  return cost::fill_suffix(t);
}

// How a block of repeats was handled, in a few words.
struct RepeatHow {
  std::size_t deferred = 0, ran_late = 0, replayed_late = 0, replayed_now = 0;
  bool inexact = false;
  void add(const json& l) {
    const bool late = l.value("deferred", false), replayed = l.value("replayed", false);
    inexact = inexact || l.value("repeat_inexact", false);
    deferred += late;
    ran_late += l.value("ran_late", false);
    (late ? replayed_late : replayed_now) += replayed;
  }
  std::string text() const {
    if (inexact) return "not re-executed; they change memory: --skip-all-repeats";
    std::string how = "not re-executed";
    if (replayed_now) how += fmt::format(": {} replayed from the same inputs", replayed_now);
    if (!deferred) return how;
    how = fmt::format("{}{} deferred until their output was read: {} ran then", replayed_now ? how + "; " : "",
                      deferred, ran_late);
    if (replayed_late) how += fmt::format(", {} of them replayed from the same inputs", replayed_late);
    return how;
  }
};

std::string launch_range(std::size_t first, std::size_t count) {
  return count > 1 ? fmt::format("{}-{}", first, first + count - 1) : fmt::format("{}", first);
}

// The shortest period (up to 8) with which the launches repeated in of[begin, end)
// cycle, at least twice over; 0 if none. A benchmark that calls a launcher of three
// kernels 500 times repeats a cycle of three.
std::size_t repeat_period(const std::vector<std::size_t>& of, std::size_t begin, std::size_t end) {
  for (std::size_t p = 1; p <= 8 && 2 * p <= end - begin; ++p) {
    bool cycles = true;
    for (std::size_t k = begin + p; k < end && cycles; ++k) cycles = of[k] == of[k - p];
    if (cycles) return p;
  }
  return 0;
}

// The table of every launch's time, as the program's clock gave it, and the total. Consecutive
// repeats (launches not re-executed) are one line: of one launch, or of a cycle of them.
std::pair<std::string, double> add_times(json& launches) {
  double total = 0;
  std::string table;
  std::map<std::size_t, double> time_of;  // launch number -> seconds, for its repeats
  std::vector<std::size_t> of(launches.size(), 0);  // the launch each repeat repeats; 0: none
  // Lines for the repeats [begin, end): a cycle, or runs of one launch each.
  auto repeats_lines = [&](std::size_t begin, std::size_t end) {
    const std::size_t p = repeat_period(of, begin, end);
    if (p > 1) {
      const std::size_t cycles = (end - begin) / p, tail = (end - begin) % p;
      RepeatHow how;
      double cycle_s = 0;
      std::vector<std::string> members;
      for (std::size_t k = begin; k < begin + cycles * p; ++k) how.add(launches[k]);
      for (std::size_t k = begin; k < begin + p; ++k) cycle_s += time_of[of[k]], members.push_back(fmt::format("{}", of[k]));
      table += fmt::format("[launch {}] {}x the cycle of launches {} ({}): {} a cycle\n",
                           launch_range(begin + 1, cycles * p), cycles, fmt::join(members, ", "), how.text(),
                           cost::format_seconds(cycle_s));
      begin += cycles * p;
      if (!tail) return;
    }
    for (std::size_t k = begin; k < end;) {
      std::size_t n = 1;
      while (k + n < end && of[k + n] == of[k]) ++n;
      RepeatHow how;
      for (std::size_t m = k; m < k + n; ++m) how.add(launches[m]);
      table += fmt::format("[launch {}] {}x the same as launch {} ({}): {} each\n", launch_range(k + 1, n), n, of[k],
                           how.text(), cost::format_seconds(time_of[of[k]]));
      k += n;
    }
  };
  std::size_t block = 0;  // where the current block of repeats began
  bool in_block = false;
  for (std::size_t i = 0; i < launches.size(); ++i) {
    json& l = launches[i];
    const std::size_t repeated = l.value("repeat_of", std::size_t{0});
    if (l.value("error", 0) == 0 && repeated && time_of.contains(repeated)) {
      total += time_of[repeated];
      of[i] = repeated;
      if (!in_block) block = i, in_block = true;
      continue;
    }
    if (in_block) repeats_lines(block, i), in_block = false;
    if (l.value("error", 0) != 0) continue;
    const json& t = launch_time(l);
    const double seconds = t.value("predicted_s", 0.0);
    time_of[i + 1] = seconds;
    total += seconds;
    table += fmt::format("[launch {}] {}: {} = {} launch + {}{}\n", i + 1, l.value("kernel", "?"),
                         cost::format_seconds(seconds), cost::format_seconds(t.value("launch_overhead_s", 0.0)),
                         t.value("sentence", ""), fill_text(t));
  }
  if (in_block) repeats_lines(block, launches.size());
  return {table, total};
}

// The timeline of a program on several GPUs in the terminal: one row per GPU and
// stream, each column a slice of the run, marked by what took most of it (K kernel,
// N NCCL, C copy to or from the host, P peer copy, M memset; '.' idle).
std::string ascii_timeline(const json& trace, double end_us, int width = 72) {
  std::set<int> gpus;
  for (const json& e : trace["traceEvents"])
    if (e.value("ph", "") == "X") gpus.insert(e.value("pid", 0));
  if (gpus.size() < 2 || end_us <= 0) return "";
  std::map<std::pair<int, int>, std::vector<double>> busy;  // per row, per column: microseconds of each mark
  std::map<std::pair<int, int>, std::vector<char>> marks;
  for (const json& e : trace["traceEvents"]) {
    if (e.value("ph", "") != "X") continue;
    const std::pair<int, int> key{e.value("pid", 0), e.value("tid", 0)};
    auto& b = busy[key];
    auto& m = marks[key];
    if (b.empty()) b.assign(width, 0), m.assign(width, '.');
    const std::string cat = e.value("cat", "");
    const char mark = cat == "kernel" ? 'K' : cat == "nccl" ? 'N' : cat == "memcpy PtoP" ? 'P' : cat == "memset" ? 'M' : 'C';
    const double t0 = e.value("ts", 0.0), t1 = t0 + e.value("dur", 0.0), col = end_us / width;
    for (int c = std::max(0, int(t0 / col)); c < width && c * col < t1; ++c) {
      const double overlap = std::min(t1, (c + 1) * col) - std::max(t0, c * col);
      if (overlap > b[c]) b[c] = overlap, m[c] = mark;
    }
  }
  std::string out = fmt::format("\nsimulated timeline, 0 .. {} (K kernel, N NCCL, C copy, P peer copy, M memset):\n",
                                cost::format_seconds(end_us * 1e-6));
  for (const auto& [key, m] : marks)
    out += fmt::format("  GPU {:<3} stream {:<3} |{}|\n", key.first, key.second, std::string(m.begin(), m.end()));
  return out;
}

}  // namespace

// One line from the program's timeline: how much of each kind of work, and when
// the last of it ends (streams may overlap copies with kernels); on several GPUs,
// the timeline itself.
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
                     parts, cost::format_seconds(end_us * 1e-6), streams, streams == 1 ? "" : "s") +
         ascii_timeline(trace, end_us);
}

void report_kernel_times(const std::string& report_path, const std::string& timeline_path, const std::string& device,
                         bool json_to_stderr) {
  std::ifstream in(report_path);
  if (!in) return;  // the program died before writing its report: nothing to time
  json launches = json::parse(in, nullptr, false);
  if (!launches.is_array()) return;
  std::string summary;
  try {
    auto [table, total] = add_times(launches);
    summary = fmt::format("\n== simt: kernel time on {} (docs/cost-model.md, 'Kernel time') ==\n{}total {} ({} launch{} "
                          "one after another)\n{}",
                          device, table, cost::format_seconds(total), launches.size(),
                          launches.size() == 1 ? "" : "es", clock_summary(timeline_path));
  } catch (const std::invalid_argument& e) {
    summary = fmt::format("\n== simt: kernel time on {}: not available ({}) ==\n", device, e.what());
  }
  if (json_to_stderr) fmt::print(stderr, "{}\n", launches.dump(2));
  else fmt::print(stderr, "{}", summary);
}

}  // namespace simt::cli
