// execute_launch: check the configuration, run the blocks on the worker pool,
// gather the counters and the first fault into the launch's record.
#include "sim/exec/executor.hpp"
#include "sim/memory/global_memory.hpp"
#include "sim/compiler/sites.hpp"

#include "sim/cuda/device_output.hpp"
#include "sim/exec/launch_checks.hpp"
#include "sim/exec/repeat_launch.hpp"
#include "sim/exec/worker_pool.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>

namespace simt {

namespace {

std::uint32_t next_serial() {
  static std::atomic<std::uint32_t> serial{0};
  return ++serial;
}

// A skipped repeat: the record of the launch it repeats, marked as such. The
// first inexact one (RepeatMode::All) says on stderr that memory now differs.
int append_repeat(const RepeatMatch& m) {
  LaunchRecord r = launch_records()[m.record_index];
  r.repeat_of = m.record_index + 1;
  r.repeat_inexact = !m.exact;
  r.wall_seconds = 0;
  static bool warned = false;
  if (!m.exact && !warned) {
    warned = true;
    fmt::print(stderr,
               "simt: --skip-all-repeats: launch {} ({}) repeats launch {} but changes memory (it {}); it was not "
               "executed, so device memory differs from a GPU's from here on\n",
               launch_records().size() + 1, r.kernel, r.repeat_of,
               r.totals[Counter::GlobalAtomRequests] || r.totals[Counter::SharedAtomInst] ? "uses atomics"
                                                                                          : "reads what it writes");
  }
  append_launch_record(std::move(r));
  return 0;
}

int run_launch(const void* kernel_fn, const LaunchConfig& cfg, const KernelBody& body, std::uint32_t& serial);

}  // namespace

int execute_launch(const void* kernel_fn, const LaunchConfig& cfg, const KernelBody& body) {
  LaunchKey key{kernel_fn, cfg.grid, cfg.block, cfg.dynamic_shared, cfg.stream, {}};
  const bool known_args = body.argument_bytes(key.args);
  RepeatLaunches& repeats = RepeatLaunches::instance();
  if (known_args)
    if (auto prev = repeats.repeat_of(key)) return append_repeat(*prev);
  const std::uint64_t output_before = device_output_calls();
  std::uint32_t serial = 0;
  const int code = run_launch(kernel_fn, cfg, body, serial);
  const std::size_t index = launch_records().size() - 1;
  LaunchRecord& rec = mutable_launch_record(index);
  rec.printed = device_output_calls() != output_before;
  if (known_args && serial != 0)
    repeats.executed(std::move(key), index, serial, rec.error == 0 && !rec.printed,
                     checks().races && record_allows_repeat(rec));
  else
    repeats.forget();
  return code;
}

namespace {

// Checks the configuration, runs every block, appends the record. `serial` is
// the launch's number in the shadows (0 when it did not run).
int run_launch(const void* kernel_fn, const LaunchConfig& cfg, const KernelBody& body, std::uint32_t& serial) {
  auto start = std::chrono::steady_clock::now();
  LaunchRecord rec;
  rec.kernel_fn = kernel_fn;
  rec.kernel = function_name(kernel_fn);
  rec.grid = cfg.grid;
  rec.block = cfg.block;
  rec.dynamic_shared_bytes = cfg.dynamic_shared;
  const Module& module = module_of(kernel_fn);
  std::string full = full_function_name(kernel_fn);
  if (full.rfind("void ", 0) == 0) full.erase(0, 5);
  rec.static_shared_bytes = module.shared_bytes_of(full);

  if (auto [code, why] = check_config(kernel_fn, cfg, rec.static_shared_bytes); code != 0) {
    Diagnostic d;
    d.kind = DiagKind::LaunchConfig;
    d.kernel = rec.kernel;
    d.message = why;
    rec.diagnostics.push_back(d);
    rec.error = code;
    append_launch_record(std::move(rec));
    return code;
  }

  LaunchContext launch;
  launch.kernel_fn = kernel_fn;
  launch.body = &body;
  launch.cfg = cfg;
  launch.geometry = {cfg.grid, cfg.block};
  launch.kernel = rec.kernel;
  launch.full_name = full_function_name(kernel_fn);
  if (launch.full_name.rfind("void ", 0) == 0) launch.full_name.erase(0, 5);  // templates carry their return type
  launch.module = &module;
  launch.nblocks = volume(cfg.grid);
  launch.threads_per_block = static_cast<unsigned>(volume(cfg.block));
  launch.serial = serial = next_serial();
  launch.tag = static_cast<std::uint16_t>(launch.serial % 65535 + 1);

  unsigned n = static_cast<unsigned>(std::min<std::uint64_t>(worker_count(), launch.nblocks));
  launch.started = launch.last_report = std::chrono::steady_clock::now();
  launch.progress_worker = WorkerPool::instance().calling_worker();
  // Managed memory is device memory while the kernel runs: only its instrumented
  // accesses may reach it (they use the host mapping).
  GlobalMemory::instance().set_launch_running(true, instrumented_kernel(kernel_fn));
  const std::vector<Worker*>& workers = WorkerPool::instance().run(launch, n);
  GlobalMemory::instance().set_launch_running(false);
  for (Worker* w : workers) {
    rec.totals += w->totals;
    for (auto& [site, c] : w->per_site) rec.per_site[site] += c;
    w->totals = {};
    w->per_site.clear();
  }
  rec.workers = n;
  if (progress_callback() && std::chrono::steady_clock::now() - launch.started >= std::chrono::milliseconds(500))
    progress_callback()(launch.kernel, launch.nblocks, launch.nblocks);  // let the display finish its line
  if (!launch.faults.empty()) {  // report the lowest-numbered failing block: stable across runs
    auto first = std::min_element(launch.faults.begin(), launch.faults.end(),
                                  [](auto& a, auto& b) { return a.first < b.first; });
    Diagnostic d = first->second;
    d.kernel = rec.kernel;
    if (d.site) {
      auto loc = resolve_sites({d.site});
      d.location = fmt::format("{}:{}", loc[0].short_file(), loc[0].line);
    }
    rec.error = error_code_for(d.kind);
    rec.diagnostics.push_back(d);
  } else if (!launch.warnings.empty()) {  // the lowest-numbered block's, like faults
    Diagnostic d = std::min_element(launch.warnings.begin(), launch.warnings.end(),
                                    [](auto& a, auto& b) { return a.first < b.first; })->second;
    d.kernel = rec.kernel;
    if (d.site) {
      auto loc = resolve_sites({d.site});
      d.location = fmt::format("{}:{}", loc[0].short_file(), loc[0].line);
    }
    d.message += fmt::format(" ({} block{} of {})", launch.warnings.size(), launch.warnings.size() == 1 ? "" : "s",
                             launch.nblocks);
    rec.diagnostics.push_back(d);
  }
  rec.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  int code = rec.error;
  append_launch_record(std::move(rec));
  return code;
}

}  // namespace

}  // namespace simt