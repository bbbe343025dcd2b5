// The launch itself: check the configuration, run the blocks on the worker pool,
// gather the counters and the first fault into the launch's record. What decides
// whether and when a launch runs at all is sim/shortcuts/launch.cpp's.
#include "sim/exec/executor.hpp"
#include "sim/memory/device_heap.hpp"
#include "sim/exec/devices.hpp"
#include "sim/memory/global_memory.hpp"
#include "sim/options/runtime_options.hpp"
#include "sim/symbols/compiler_sites.hpp"

#include "sim/exec/host_lock.hpp"
#include "sim/exec/launch_checks.hpp"
#include "sim/exec/worker_pool.hpp"
#include "sim/exec/grid_sync.hpp"
#include "sim/exec/worker.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <optional>
#include <utility>

#include <cinttypes>
#include <mutex>

namespace simt {

namespace {

std::uint32_t next_serial() {
  static std::atomic<std::uint32_t> serial{0};
  return ++serial;
}

// Threads a cooperative launch may hold at once: two mappings each (a stack and its
// guard page) within the kernel's limit, less room for everything else mapped.
std::uint64_t cooperative_thread_limit() {
  static const std::uint64_t limit = [] {
    std::uint64_t maps = 65530;  // Linux's default
    if (std::FILE* f = std::fopen("/proc/sys/vm/max_map_count", "r")) {
      unsigned long long v = 0;
      if (std::fscanf(f, "%llu", &v) == 1) maps = v;
      std::fclose(f);
    }
    const std::uint64_t reserved = 16384;
    return maps > reserved ? (maps - reserved) / 2 : 0;
  }();
  return limit;
}

// GlobalMemory's "a launch is running" (managed memory closed to the host) spans every
// launch in flight: launches of several GPUs may run at once (sim/exec/host_lock.hpp).
std::mutex g_running_mutex;
unsigned g_running = 0;

void launch_starts(bool instrumented) {
  std::lock_guard lock(g_running_mutex);
  if (g_running++ == 0 || !instrumented) GlobalMemory::instance().set_launch_running(true, instrumented);
}

void launch_ends() {
  std::lock_guard lock(g_running_mutex);
  if (--g_running == 0) GlobalMemory::instance().set_launch_running(false);
}

}  // namespace

std::size_t kernel_static_shared_bytes(const void* kernel_fn) {
  std::string full = full_function_name(kernel_fn);
  if (full.rfind("void ", 0) == 0) full.erase(0, 5);
  return module_of(kernel_fn).shared_bytes_of(full);
}

void run_part(LaunchContext& launch, unsigned n, BlockSequence seq, bool uncounted, Counters& totals,
              SiteCounters& per_site, std::vector<BlockWork>* work) {
  if (seq.count == 0) return;
  launch.blocks = seq;
  launch.uncounted = uncounted;
  launch.record_work = work != nullptr;
  launch.next_block = 0;
  WorkerPool::instance().run(launch, n, [&](Worker& w) {
    w.hand_over_counters(totals, per_site);
    w.hand_over_thread_accesses(launch.thread_accesses);
    w.hand_over_atomics(launch.atomic_rounds);
    w.hand_over_trace(launch.trace);
    if (work) work->insert(work->end(), w.block_work.begin(), w.block_work.end());
    w.block_work.clear();
  });
  launch.record_work = false;
  launch.blocks_before += seq.count;
}

void run_every_block(LaunchContext& launch, unsigned n, LaunchRecord& rec) {
  run_part(launch, n, {BlockSequence::Kind::All, 1, launch.nblocks}, false, rec.totals, rec.per_site);
}

int run_launch(const void* kernel_fn, const LaunchConfig& cfg, const KernelBody& body, std::uint32_t& serial,
               BlockRunner run_blocks) {
  auto start = std::chrono::steady_clock::now();
  LaunchRecord rec;
  rec.kernel_fn = kernel_fn;
  rec.kernel = function_name(kernel_fn);
  rec.grid = cfg.grid;
  rec.block = cfg.block;
  rec.dynamic_shared_bytes = cfg.dynamic_shared;
  rec.cooperative = cfg.cooperative;
  rec.device = current_device();  // a refused launch is never placed on a clock, which sets it too
  const Module& module = module_of(kernel_fn);
  rec.static_shared_bytes = kernel_static_shared_bytes(kernel_fn);
  if (module.stripped) {  // its __shared__ variables would look like host memory to every access
    static bool told = false;
    if (!std::exchange(told, true))
      fmt::print(stderr,
                 "simt: {} has no symbol table (it was stripped): kernels cannot be named and their __shared__ "
                 "variables cannot be found, so accesses to them fault; rebuild it, or strip only debug "
                 "information (strip --strip-debug)\n",
                 module.path);
  }

  auto refusal = check_config(kernel_fn, cfg, rec.static_shared_bytes);
  if (refusal.first == 0 && cfg.cooperative) refusal = check_cooperative(cfg, rec.static_shared_bytes);
  if (auto [code, why] = refusal; code != 0) {
    Diagnostic d;
    d.kind = DiagKind::LaunchConfig;
    d.kernel = rec.kernel;
    d.message = why;
    rec.diagnostics.push_back(d);
    rec.error = code;
    append_launch_record(std::move(rec));
    return code;
  }

  if (cfg.cooperative) {
    // Every thread of a cooperative grid is live at once, each fiber stack with a
    // guard page: two memory mappings a thread, and the kernel allows so many.
    const std::uint64_t threads = volume(cfg.grid) * volume(cfg.block);
    const std::uint64_t most = cooperative_thread_limit();
    if (threads > most) {
      Diagnostic d;
      d.kind = DiagKind::Unsupported;
      d.kernel = rec.kernel;
      d.message = fmt::format("a cooperative launch of {} threads ({} blocks of {}): the simulator holds every thread "
                              "of a cooperative grid at once, each with its own guarded stack, and this machine's "
                              "limit on memory mappings (/proc/sys/vm/max_map_count) allows {} threads; use fewer "
                              "blocks (a grid-stride loop covers the same data)",
                              threads, volume(cfg.grid), volume(cfg.block), most);
      rec.diagnostics.push_back(d);
      rec.error = error_code_for(d.kind);
      append_launch_record(std::move(rec));
      return error_code_for(DiagKind::Unsupported);
    }
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
  launch.device = current_device();
  if (device_count() > 1) launch.global_pages = GlobalMemory::instance().page_bytes(launch.device);
  launch.tally_threads = runtime_options().thread_accesses;
  launch.trace_warps = static_cast<unsigned>(std::min<std::uint64_t>(runtime_options().trace_warps, 1u << 20));
  launch.trace.set_per_site(launch.trace_warps);

  unsigned n = static_cast<unsigned>(std::min<std::uint64_t>(worker_count(), launch.nblocks));
  launch.started = launch.last_report = std::chrono::steady_clock::now();
  launch.progress_worker = WorkerPool::instance().calling_worker();
  std::unique_ptr<GridSync> grid;
  if (cfg.cooperative) {  // every block live at once, one running at a time (sim/exec/grid_sync.hpp)
    grid = std::make_unique<GridSync>(launch.nblocks, &launch.tag, [] {
      return static_cast<std::uint16_t>(next_serial() % 65535 + 1);
    });
    launch.grid = grid.get();
    n = static_cast<unsigned>(launch.nblocks);
  }
  // Managed memory is device memory while the kernel runs: only its instrumented
  // accesses may reach it (they use the host mapping).
  DeviceHeap::of(current_device()).prepare(current_device());  // before any thread may call malloc
  launch_starts(instrumented_kernel(kernel_fn));
  launch.blocks = {BlockSequence::Kind::All, 1, launch.nblocks};
  if (cfg.cooperative) {
    for (Worker* w : WorkerPool::instance().run_cooperative(launch)) {
      w->hand_over_counters(rec.totals, rec.per_site);
      w->hand_over_thread_accesses(launch.thread_accesses);
      w->hand_over_atomics(launch.atomic_rounds);
      w->hand_over_trace(launch.trace);
    }
  } else {
    // Without the runtime's lock when the launch's LaunchSlot allows: host threads
    // driving other GPUs go on meanwhile (sim/exec/host_lock.hpp).
    const BlocksOutsideLock outside;
    run_blocks(launch, n, rec);  // every block, or a sample of them (sim/shortcuts/sampling.hpp)
  }
  launch_ends();
  // A sampled launch's hottest block scales with the blocks it stands for.
  launch.atomic_rounds.write(rec.totals, rec.counted_blocks ? double(launch.nblocks) / double(rec.counted_blocks) : 1.0);
  if (launch.tally_threads) rec.thread_accesses = std::move(launch.thread_accesses);
  if (launch.trace_warps) rec.access_trace = launch.trace.take();
  if (grid) rec.grid_barriers = grid->barriers();
  rec.workers = n;
  if (progress_callback() && std::chrono::steady_clock::now() - launch.started >= std::chrono::milliseconds(500))
    report_launch_progress(&launch, launch.kernel, launch.nblocks, launch.nblocks);  // let the display finish its line
  // The lowest-numbered failing block: stable across runs, except for a race between
  // blocks that ran at once, where which accesses met first varies (docs/exec.md).
  if (!launch.faults.empty()) {
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
  // A block that exits without reaching grid.sync() deadlocks the GPU (CUDA 13's grid
  // barrier counts blocks); here the others went on, so the launch is failed loudly.
  if (grid && rec.error == 0 && grid->exited_block() < launch.nblocks) {
    const std::uint64_t b = grid->exited_block();
    Diagnostic d;
    d.kind = DiagKind::ExitedBeforeBarrier;
    d.kernel = rec.kernel;
    d.block = {unsigned(b % cfg.grid.x), unsigned(b / cfg.grid.x % cfg.grid.y),
               unsigned(b / (std::uint64_t(cfg.grid.x) * cfg.grid.y))};
    d.message = "this block exited without reaching grid_group::sync(), which the other blocks wait at: CUDA 13's "
                "grid barrier waits for every block of the grid, so on the GPU this launch never finishes";
    rec.error = error_code_for(d.kind);
    rec.diagnostics.push_back(d);
  }
  rec.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  int code = rec.error;
  append_launch_record(std::move(rec));
  return code;
}

}  // namespace simt