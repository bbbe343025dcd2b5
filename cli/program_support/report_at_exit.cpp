// Linked into every program `simt exec` and `simt cc` build. Before main it
// applies the simulated device chosen with --device; after the program ends it
// prints one report per kernel launch (stderr, so the program's stdout stays its
// own) and, when asked, the launches as JSON. Controlled by the environment that
// `simt exec` sets (docs/exec.md):
//   SIMT_REPORT=tables|none   per-launch tables on stderr (unset: none)
//   SIMT_REPORT_JSON=PATH|-   JSON array of launches to PATH, or stderr for "-"
//   SIMT_DEVICE (sim/exec/device_limits.hpp): also the device the clock prices
//   SIMT_TIMELINE=PATH        the simulated clock's timeline as a Chrome/Perfetto trace
//   SIMT_SKIP_REPEATS=0       execute identical repeated launches too (sim/shortcuts/repeat_launch.hpp);
//                   =pure     skip those that cannot change memory, defer none
//                   =all      skip them all, even those that change memory
#include "sim/clock/device_clock.hpp"
#include "sim/exec/executor.hpp"
#include "sim/state/launch_record.hpp"
#include "sim/report/report.hpp"
#include "timing/clock_model.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace {

constexpr std::size_t kMaxTables = 20;  // a program that launches in a loop gets a summary after this

const char* env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

void apply_device() {
  if (const char* d = env(simt::kDeviceEnvVar)) simt::device_limits() = simt::device_from_env(d);
  simt::timing::install_clock_model(simt::device_limits().name);  // cudaEventElapsedTime reads its times
}

void print_tables() {
  const auto& records = simt::launch_records();
  std::string out = "\n== simt: " + std::to_string(records.size()) + " kernel launch" +
                    (records.size() == 1 ? "" : "es") + " on the simulated " + simt::device_limits().name + " ==\n";
  out += simt::deferral_summary(records);
  for (std::size_t i = 0; i < records.size() && i < kMaxTables; ++i) {
    out += "\n[launch " + std::to_string(i + 1) + "] " + simt::counter_table(records[i]);
    out += simt::hot_lines_table(records[i]);
    for (const auto& d : records[i].diagnostics) out += simt::format_diagnostic(d) + "\n";
  }
  if (records.size() > kMaxTables)
    out += "\n... " + std::to_string(records.size() - kMaxTables) + " more launches (all of them: --json)\n";
  std::fputs(out.c_str(), stderr);
}

void write_json(const char* where) {
  nlohmann::json all = nlohmann::json::array();
  for (const auto& r : simt::launch_records()) all.push_back(simt::launch_json(r));
  std::string text = all.dump(2) + "\n";
  if (std::string(where) == "-") {
    std::fputs(text.c_str(), stderr);
    return;
  }
  std::ofstream f(where);
  f << text;
  if (!f) std::fprintf(stderr, "simt: cannot write the launch report to %s\n", where);
}

void write_timeline(const char* where) {
  std::ofstream f(where);
  f << simt::chrome_trace(simt::DeviceClock::instance()).dump(1) << "\n";
  if (!f) std::fprintf(stderr, "simt: cannot write the timeline to %s\n", where);
}

void report() {
  std::fflush(stdout);  // the program's own output comes first
  const char* tables = env("SIMT_REPORT");
  if (tables && std::string(tables) == "tables") print_tables();
  if (const char* json = env("SIMT_REPORT_JSON")) write_json(json);
  if (const char* timeline = env("SIMT_TIMELINE")) write_timeline(timeline);
}

}  // namespace

// When to report: after main returns (or exit() is called), but before any static
// object is destroyed -- the launch records and symbol caches are function-local
// statics of libsimt_sim.so, created during the run and destroyed at exit. glibc's
// exit() runs the main thread's thread_local destructors before every static
// destructor, so the report lives in a thread_local of the main thread. (It is in
// namespace simt:: so the simulator does not take it for a __shared__ variable.)
namespace simt::exec_support {
struct Reporter {
  bool armed = false;
  ~Reporter() {
    if (armed) report();
  }
};
thread_local Reporter t_reporter;

struct ArmAtStartup {
  ArmAtStartup() {
    apply_device();
    t_reporter.armed = true;  // constructs the main thread's Reporter now
  }
};
ArmAtStartup g_arm_at_startup;
}  // namespace simt::exec_support
