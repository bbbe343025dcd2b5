// Linked into every program `simt exec` and `simt cc` build. Before main it makes
// the device option's catalog device the simulated one (limits and clock); after
// the program ends it prints one report per kernel launch (stderr, so the program's
// stdout stays its own) and, when asked, the launches as JSON. Controlled by the
// options of $SIMT_OPTIONS that `simt exec` sets (sim/options/options.inc,
// docs/exec.md): device, report (tables|none), report_json (PATH, or - for stderr),
// timeline (PATH: the simulated clock's Chrome/Perfetto trace).
#include "sim/clock/device_clock.hpp"
#include "sim/clock/link_traffic.hpp"
#include "sim/cuda/launch_batch.hpp"
#include "sim/exec/devices.hpp"
#include "sim/exec/executor.hpp"
#include "sim/exec/process_rank.hpp"
#include "sim/options/runtime_options.hpp"
#include "sim/state/launch_record.hpp"
#include "sim/report/launch_progress.hpp"
#include "sim/report/report.hpp"
#include "timing/simulated_device.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include <fcntl.h>
#include <unistd.h>

namespace {

constexpr std::size_t kMaxTables = 20;  // a program that launches in a loop gets a summary after this

// An unknown name stops the program before main: every limit and time after it
// would be another device's.
void apply_device() {
  try {
    simt::timing::use_simulated_device(simt::runtime_options().device);  // cudaEventElapsedTime reads its clock
  } catch (const std::exception& e) {
    std::fprintf(stderr, "simt: $SIMT_OPTIONS: device=%s: %s\n", simt::runtime_options().device.c_str(), e.what());
    std::exit(2);
  }
}

void print_tables() {
  const auto& records = simt::launch_records();
  const int gpus = simt::device_count();
  std::string out = "\n== simt: " + std::to_string(records.size()) + " kernel launch" +
                    (records.size() == 1 ? "" : "es") + " on the simulated " +
                    (gpus > 1 ? std::to_string(gpus) + " x " : std::string()) + simt::device_limits().name + " ==\n";
  out += simt::deferral_summary(records);
  for (std::size_t i = 0; i < records.size() && i < kMaxTables; ++i) {
    const std::string on = gpus > 1 ? " (GPU " + std::to_string(records[i].device) + ")" : "";
    out += "\n[launch " + std::to_string(i + 1) + "]" + on + " " + simt::counter_table(records[i]);
    out += simt::hot_lines_table(records[i]);
    for (const auto& d : records[i].diagnostics) out += simt::format_diagnostic(d) + "\n";
  }
  if (records.size() > kMaxTables)
    out += "\n... " + std::to_string(records.size() - kMaxTables) + " more launches (all of them: --json)\n";
  std::fputs(out.c_str(), stderr);
}

void write_json(const std::string& where) {
  nlohmann::json all = nlohmann::json::array();
  for (const auto& r : simt::launch_records()) all.push_back(simt::launch_json(r));
  std::string text = all.dump(2) + "\n";
  if (where == "-") {
    std::fputs(text.c_str(), stderr);
    return;
  }
  std::ofstream f(where);
  f << text;
  if (!f) std::fprintf(stderr, "simt: cannot write the launch report to %s\n", where.c_str());
}

// The bytes each link between GPUs carried (peer copies, NCCL), when any did.
void print_link_traffic() {
  const auto links = simt::link_bytes();
  if (links.empty()) return;
  std::string out = "\n== simt: bytes over the links between GPUs ==\n";
  for (const auto& [pair, bytes] : links)
    out += "  GPU " + std::to_string(pair.first) + " -> GPU " + std::to_string(pair.second) + "  " +
           std::to_string(static_cast<unsigned long long>(bytes)) + " bytes\n";
  std::fputs(out.c_str(), stderr);
}

void write_timeline(const std::string& where) {
  std::ofstream f(where);
  f << simt::chrome_trace(simt::DeviceClock::used()).dump(1) << "\n";
  if (!f) std::fprintf(stderr, "simt: cannot write the timeline to %s\n", where.c_str());
}

// One process per rank (simt exec --ranks): each rank's tables go to its own file
// (the tables path simt gave, per rank), which simt prints in rank order once all
// have ended, instead of interleaving on the shared stderr.
void print_report_tables(const simt::Options& o) {
  const std::string to = simt::per_rank_path(o.tables);
  const int fd = to.empty() ? -1 : open(to.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  const int saved = fd >= 0 ? dup(STDERR_FILENO) : -1;
  if (saved >= 0) {
    std::fflush(stderr);
    dup2(fd, STDERR_FILENO);
  }
  print_tables();
  print_link_traffic();
  if (saved >= 0) {
    std::fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
  }
  if (fd >= 0) close(fd);
}

void report() {
  simt::run_launch_batch();  // launches the main thread made after its last runtime call
  std::fflush(stdout);  // the program's own output comes first
  const simt::Options& o = simt::runtime_options();
  if (o.report == simt::ReportKind::tables) print_report_tables(o);
  if (!o.report_json.empty()) write_json(simt::per_rank_path(o.report_json));
  if (!o.timeline.empty()) write_timeline(simt::per_rank_path(o.timeline));
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
    simt::show_launch_progress();  // a long launch says how far it is and how long the rest takes
    t_reporter.armed = true;  // constructs the main thread's Reporter now
  }
};
ArmAtStartup g_arm_at_startup;
}  // namespace simt::exec_support
