// simt bench: how fast the simulator runs with full counting, on one core and on
// all, against the same kernels with instrumentation compiled out.
#include "commands.hpp"

#include "kernels/bench_workloads.hpp"
#include "sim/shortcuts/launch.hpp"
#include "sim/exec/executor.hpp"
#include "sim/shortcuts/repeat_launch.hpp"
#include "sim/state/launch_record.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <thread>

namespace simt::cli {
namespace {

struct Timing {
  double seconds = 0;
  Counters counters;
};

// Best of `repeats` launches (after one warm-up that also allocates the inputs).
// Every launch executes: skipping identical repeats would time nothing.
Timing time_launch(void (*launch)(), unsigned workers, int repeats, bool sanitizers = true) {
  const RepeatMode mode = RepeatLaunches::instance().mode();
  RepeatLaunches::instance().set_mode(RepeatMode::Never);
  set_worker_count(workers);
  checks().races = checks().uninitialized = sanitizers;
  launch();
  Timing best{1e30, {}};
  for (int i = 0; i < repeats; ++i) {
    clear_launch_records();
    launch();
    const LaunchRecord& r = launch_records().back();
    if (r.wall_seconds < best.seconds) best = {r.wall_seconds, r.totals};
  }
  set_worker_count(0);
  checks().races = checks().uninitialized = true;
  RepeatLaunches::instance().set_mode(mode);
  return best;
}

void bench(const bench::Workload& w, unsigned cores, int repeats) {
  Timing one = time_launch(w.counted, 1, repeats), all = time_launch(w.counted, cores, repeats);
  Timing plain_one = time_launch(w.plain, 1, repeats), plain_all = time_launch(w.plain, cores, repeats);
  Timing bare_one = time_launch(w.counted, 1, repeats, false), bare_all = time_launch(w.counted, cores, repeats, false);
  const Counters& c = one.counters;
  const double fp = double(c[Counter::FAdd] + c[Counter::FMul] + c[Counter::FFma] + c[Counter::DAdd] +
                           c[Counter::DMul] + c[Counter::DFma]);
  const double warp = double(c[Counter::WarpInst]);
  fmt::print("{}\n", w.name);
  fmt::print("  counted FP instructions (thread level) {:>14.0f}   counted warp instructions {:>12.0f}\n", fp, warp);
  fmt::print("  {:<40} {:>10} {:>16} {:>16} {:>14}\n", "", "seconds", "FP ops/s", "warp inst/s", "vs plain");
  auto row = [&](const char* label, const Timing& t, const Timing& plain) {
    fmt::print("  {:<40} {:>10.4f} {:>16.3e} {:>16.3e} {:>13.1f}x\n", label, t.seconds, fp / t.seconds,
               warp / t.seconds, t.seconds / plain.seconds);
  };
  row("counted + sanitizers, 1 core", one, plain_one);
  row(fmt::format("counted + sanitizers, {} cores", cores).c_str(), all, plain_all);
  row("counted, no race/init checks, 1 core", bare_one, plain_one);
  row(fmt::format("counted, no race/init checks, {} cores", cores).c_str(), bare_all, plain_all);
  fmt::print("  {:<40} {:>10.4f}\n", "uninstrumented, 1 core", plain_one.seconds);
  fmt::print("  {:<40} {:>10.4f}\n", fmt::format("uninstrumented, {} cores", cores), plain_all.seconds);
  fmt::print("  parallel speedup with counting: {:.2f}x on {} cores ({:.0f}% efficiency)\n\n",
             one.seconds / all.seconds, cores, 100.0 * one.seconds / all.seconds / cores);
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("bench", "Simulation throughput with full counting vs uninstrumented kernels");
  auto repeats = std::make_shared<int>(5);  // this kind of machine varies by 10-20% from run to run
  cmd->add_option("--repeats", *repeats, "Launches per measurement (best is kept)")->check(CLI::Range(1, 100));
  cmd->callback([repeats] {
    unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    fmt::print("simt bench: best of {} launches each. Bounds checks are always on; race and\n"
               "uninitialised-read checks are on by default in simt run (off with --no-races).\n\n",
               *repeats);
    bench(bench::matmul_workload(), cores, *repeats);
    bench(bench::vector_add_workload(), cores, *repeats);
  });
}

}  // namespace simt::cli
