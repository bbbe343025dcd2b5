#include "sim/executor.hpp"

#include "sim/crash_guard.hpp"
#include "sim/global_checks.hpp"
#include "sim/global_memory.hpp"
#include "sim/runtime.hpp"
#include "sim/shared_checks.hpp"
#include "sim/worker.hpp"

#include <fmt/format.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <map>
#include <thread>

namespace simt {

thread_local constinit ThreadState* t_thread SIMT_FAST_TLS = nullptr;
thread_local constinit const LaunchGeometry* t_geometry SIMT_FAST_TLS = nullptr;
thread_local constinit uint3 t_block_idx SIMT_FAST_TLS{};
thread_local constinit std::uintptr_t t_stack_lo SIMT_FAST_TLS = 0, t_stack_size SIMT_FAST_TLS = 0;

namespace ctx = boost::context;

namespace {

constexpr std::size_t kStackBytes = 128 * 1024;
constexpr std::size_t kGuardBytes = 4096;
constexpr unsigned kMaxThreads = 1024;

struct PoolStack {  // hands boost a stack from the worker's pool; never frees it
  ctx::stack_context sc;
  ctx::stack_context allocate() { return sc; }
  void deallocate(ctx::stack_context&) noexcept {}
};

std::vector<LaunchRecord>& records() {
  static std::vector<LaunchRecord> r;
  return r;
}

unsigned default_workers() {
  if (const char* env = std::getenv("SIMT_THREADS")) {
    int n = std::atoi(env);
    if (n > 0) return static_cast<unsigned>(n);
  }
  return std::max(1u, std::thread::hardware_concurrency());
}
unsigned g_workers = 0;

}  // namespace

const std::vector<LaunchRecord>& launch_records() { return records(); }
void clear_launch_records() { records().clear(); }

DeviceLimits& device_limits() {
  static DeviceLimits limits;
  return limits;
}
void set_worker_count(unsigned n) { g_workers = n; }
unsigned worker_count() { return g_workers ? g_workers : default_workers(); }
Checks& checks() {
  static Checks c;
  return c;
}
ProgressFn& progress_callback() {
  static ProgressFn fn;
  return fn;
}

// ---------------------------------------------------------------- worker

Worker::Worker() {
  std::size_t bytes = kMaxThreads * (kStackBytes + kGuardBytes);
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::runtime_error("simtlab: cannot reserve fiber stacks");
  stacks_ = reinterpret_cast<std::uintptr_t>(p);
  for (unsigned i = 0; i < kMaxThreads; ++i)  // a guard page below each stack
    mprotect(reinterpret_cast<void*>(stacks_ + i * (kStackBytes + kGuardBytes)), kGuardBytes, PROT_NONE);
  threads_.resize(kMaxThreads);
  to_thread.resize(kMaxThreads);
}

Worker::~Worker() { munmap(reinterpret_cast<void*>(stacks_), kMaxThreads * (kStackBytes + kGuardBytes)); }

void Worker::run_launch(LaunchContext& launch) {
  guard_this_thread();
  shared.prepare(*launch.module, launch.cfg.dynamic_shared);
  shared.set_kernel(launch.full_name);
  map_addresses();
  t_geometry = &launch.geometry;
  recent_allocations[0] = recent_allocations[1] = nullptr;
  site_cache_.fill({});  // per_site was emptied after the last launch
  const bool reports_progress = this == launch.progress_worker && progress_callback();
  for (;;) {
    if (launch.failed.load(std::memory_order_relaxed)) break;
    std::uint64_t b = launch.next_block.fetch_add(1);
    if (b >= launch.nblocks) break;
    run_block(launch, b);
    if (reports_progress) report_progress(launch);
  }
  t_geometry = nullptr;
  t_address_map = AddressMap{};  // host code after the launch must not look like a kernel
}

void Worker::map_addresses() {
  const GlobalMemory& gm = GlobalMemory::instance();
  AddressMap& m = t_address_map;
  m.global_lo = gm.base();
  m.global_size = gm.arena_bytes();
  static_assert(GlobalMemory::kPageShift == 12, "record_fast (sim/context.hpp) indexes pages by 4 KiB");
  m.global_page_bytes = gm.page_bytes();
  m.statics_lo = shared.statics.lo;
  m.statics_size = shared.statics.hi - shared.statics.lo;
  m.statics_allowed = shared.allowed_words();
  m.dynamic_lo = shared.dynamic.lo;
  m.dynamic_bytes = shared.dynamic_bytes;
  m.dynamic_reserved = shared.dynamic.hi - shared.dynamic.lo;
  m.races = checks().races;
  m.uninitialized = checks().uninitialized;
}

// Only the calling thread's worker reports, at most ten times a second, and only
// once a launch has run for half a second: short launches print nothing.
void Worker::report_progress(LaunchContext& launch) {
  auto now = std::chrono::steady_clock::now();
  if (now - launch.started < std::chrono::milliseconds(500) || now - launch.last_report < std::chrono::milliseconds(100))
    return;
  launch.last_report = now;
  std::uint64_t started = std::min(launch.next_block.load(std::memory_order_relaxed), launch.nblocks);
  progress_callback()(launch.kernel, started, launch.nblocks);
}

void Worker::run_block(LaunchContext& launch, std::uint64_t linear) {
  const dim3 g = launch.cfg.grid, bd = launch.cfg.block;
  BlockState b;
  b.launch = &launch;
  b.worker = this;
  b.linear = linear;
  b.idx = {unsigned(linear % g.x), unsigned(linear / g.x % g.y), unsigned(linear / (std::uint64_t(g.x) * g.y))};
  b.nthreads = launch.threads_per_block;
  b.nwarps = (b.nthreads + 31) / 32;
  b.threads = threads_.data();
  b.run.assign(b.nthreads, Run::Runnable);
  b.warps.assign(b.nwarps, WarpState{});
  for (unsigned w = 0; w < b.nwarps; ++w) logs_[w].reset_block();
  b.logs = logs_.data();
  b.barrier_site.assign(b.nthreads, nullptr);
  b.barrier_value.assign(b.nthreads, 0);
  b.shared = &shared;
  shared.begin_block();
  t_block_idx = b.idx;

  for (unsigned t = 0; t < b.nthreads; ++t) {
    ThreadState& ts = threads_[t];
    ts.thread_idx = {t % bd.x, t / bd.x % bd.y, t / (bd.x * bd.y)};
    ts.linear = t;
    ts.lane = t % 32;
    ts.warp = t / 32;
    ts.block = &b;
    ts.stack_lo = stacks_ + t * (kStackBytes + kGuardBytes) + kGuardBytes;
    ts.stack_size = kStackBytes;
    ts.log = &logs_[ts.warp];
    ts.ops.clear();
    ts.abandoned = false;
    b.warps[ts.warp].present |= 1u << ts.lane;
    ctx::stack_context sc;
    sc.size = kStackBytes;
    sc.sp = reinterpret_cast<void*>(ts.stack_lo + kStackBytes);
    to_thread[t] = ctx::fiber(std::allocator_arg, PoolStack{sc}, [this, &b, &launch, t](ctx::fiber&& from) {
      accept(std::move(from));
      set_current_thread(&threads_[t]);
      try {
        launch.body->run();
      } catch (const KernelFault& f) {
        b.fail(f.diag);
      } catch (const ctx::detail::forced_unwind&) {
        throw;
      } catch (const std::exception& e) {
        b.fail(b.make_diag(DiagKind::DeviceAssert, fmt::format("kernel threw: {}", e.what()), &threads_[t], nullptr));
      }
      b.run[t] = Run::Done;
      b.warps[t / 32].exited |= 1u << (t % 32);
      set_current_thread(nullptr);
      switched_from = kFinished;
      return std::move(next_context(b, t));
    });
  }

  // A round: the first runnable thread runs until it parks or ends, then hands
  // control straight to the next runnable one, and the last back here. When none
  // can run, settle (barriers, collectives, deadlocks).
  while (!b.failed) {
    if (unsigned t = next_runnable(b, 0); t < b.nthreads) {
      switched_from = kFromScheduler;
      accept(std::move(to_thread[t]).resume());
      set_current_thread(nullptr);
    }
    if (b.failed || std::all_of(b.run.begin(), b.run.end(), [](Run r) { return r == Run::Done; })) break;
    if (std::none_of(b.run.begin(), b.run.end(), [](Run r) { return r == Run::Runnable; }) && !settle(b)) break;
  }
  if (!b.failed) close_interval(b);
  if (b.failed) {
    stop_fibers(b);
    std::lock_guard lock(launch.diag_mutex);
    launch.faults.emplace_back(linear, b.fault);
    launch.failed = true;
    return;
  }
  if (b.warned) {
    std::lock_guard lock(launch.diag_mutex);
    launch.warnings.emplace_back(linear, b.warning);
  }
  count_operations(b);
}

unsigned Worker::next_runnable(const BlockState& b, unsigned from) const {
  while (from < b.nthreads && b.run[from] != Run::Runnable) ++from;
  return from;
}

boost::context::fiber& Worker::next_context(const BlockState& b, unsigned after) {
  const unsigned next = b.failed ? b.nthreads : next_runnable(b, after + 1);
  return next < b.nthreads ? to_thread[next] : to_scheduler;
}

void Worker::accept(boost::context::fiber&& from) {
  if (switched_from == kFromScheduler) to_scheduler = std::move(from);
  else if (switched_from != kFinished) to_thread[switched_from] = std::move(from);
}

void Worker::stop_fibers(BlockState& b) {
  for (unsigned t = 0; t < b.nthreads; ++t) {
    if (threads_[t].abandoned)  // parked inside a C function that must not be unwound: leak the handle
      new ctx::fiber(std::move(to_thread[t]));
    else
      to_thread[t] = ctx::fiber{};  // unwinds the parked thread's stack
  }
}

void abandon_thread(ThreadState* t) {
  BlockState& b = *t->block;
  t->abandoned = true;
  b.run[t->linear] = Run::Done;
  b.warps[t->warp].exited |= 1u << t->lane;
  yield_thread(t);  // never resumed: the block has failed
  std::abort();     // unreachable
}

void Worker::check_pending_reads(BlockState& b) {
  if (shared.pending.empty() || !checks().uninitialized) return;
  // The lowest-numbered thread's: the same report whatever order the checks ran in.
  const PendingRead& p = *std::min_element(shared.pending.begin(), shared.pending.end(),
                                           [](const PendingRead& x, const PendingRead& y) { return x.thread < y.thread; });
  Diagnostic d = b.make_diag(
      DiagKind::UninitializedShared,
      fmt::format("read of shared memory that no thread of this block had written ({})", shared.describe(p.addr)),
      &threads_[p.thread], p.site);
  d.address = p.addr;
  b.fail(std::move(d));
}

// At each barrier and at the end of the block: the checks that waited for the
// interval to end, and the counting of its memory instructions. A convergent
// warp's rows are checked and counted in one pass (process_rows).
void Worker::close_interval(BlockState& b) {
  SharedCheckFlags on{t_address_map.races, t_address_map.uninitialized, false};
  for (unsigned w = 0; w < b.nwarps; ++w)
    if (!logs_[w].divergent() && logs_[w].has_shared_stores()) on.note_readers = true;
  on.check_loads = on.note_readers || shared.stores_this_interval || shared.unwritten_words > 0;
  try {
    for (unsigned w = 0; w < b.nwarps; ++w)
      if (!logs_[w].divergent()) process_rows(b, w, on, true);
  } catch (const KernelFault& f) {
    b.fail(f.diag);
    return;
  }
  check_pending_reads(b);
  if (b.failed) return;
  for (unsigned w = 0; w < b.nwarps; ++w) {
    WarpLog& log = logs_[w];
    if (log.divergent()) {  // checked as it ran; group the lanes' logs now
      std::array<const std::vector<MemEvent>*, 32> lanes{};
      for (unsigned l = 0; l < 32; ++l) lanes[l] = &log.lane_logs()[l];
      scratch_.clear();
      group_warp_accesses(lanes, scratch_);
      for (const WarpAccess& a : scratch_) count_instruction(a, cost_of(a));
    }
    log.clear_interval();
  }
}

// A convergent warp's rows: the deferred checks and the DRAM estimate, then (with
// `count`) the counters, sharing the work (bank patterns, sectors) between them.
void Worker::process_rows(BlockState& b, unsigned warp, SharedCheckFlags on, bool count) {
  WarpLog& log = logs_[warp];
  const bool checking = on.races || on.uninitialized;
  const auto rows = log.rows();
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const WarpAccess& row = rows[k];
    InstructionCost cost;
    if (row.space == Space::Global) {
      std::uint64_t sectors[64];
      cost.sectors = distinct_sectors(row, sectors);
      check_global_row(b, warp, row, on.races, sectors, cost.sectors);
    } else if (row.op != MemOp::Atomic) {
      const SharedPattern& pattern = shared_patterns_.analyse(row);
      cost.shared = pattern.cost;
      if (checking) check_shared_row(b, warp, row, log.row_sync_count(k), on, &pattern);
    }
    if (count) count_instruction(row, cost);
  }
}

void Worker::count_instruction(const WarpAccess& a, const InstructionCost& cost) {
  count_access(a, cost, totals);
  count_access(a, cost, site_counters(a.site));
}

Counters& Worker::site_counters(Site site) {
  SiteSlot& slot = site_cache_[(reinterpret_cast<std::uintptr_t>(site) >> 3) % site_cache_.size()];
  if (slot.site != site) slot = {site, &per_site[site]};  // map nodes never move
  return *slot.counters;
}

// Per warp and site: thread-level count = sum over lanes, warp-level = max.
void Worker::count_operations(BlockState& b) {
  std::vector<OpTotal>& agg = op_scratch_;
  for (unsigned w = 0; w < b.nwarps; ++w) {
    agg.clear();
    for (unsigned l = 0; l < 32 && w * 32 + l < b.nthreads; ++l) {
      threads_[w * 32 + l].ops.for_each([&](const SiteCounts::Entry& e) {
        for (OpTotal& a : agg)  // a warp touches few sites: a linear search beats a map
          if (a.site == e.site) {
            a.sum += e.count;
            a.max = std::max(a.max, e.count);
            return;
          }
        agg.push_back({e.site, e.kind, e.count, e.count});
      });
    }
    for (const OpTotal& a : agg) {
      Counters& s = site_counters(a.site);
      for (Counters* c : {&totals, &s}) {
        if (a.kind < static_cast<std::uint32_t>(kFpOpCount)) (*c)[fp_counter(a.kind)] += a.sum;
        else (*c)[Counter::WarpCollectives] += a.max;
        (*c)[Counter::WarpInst] += a.max;
        (*c)[Counter::ThreadInst] += a.sum;
      }
    }
  }
}

// ---------------------------------------------------------------- launch

namespace {

class WorkerPool {
 public:
  static WorkerPool& instance() {
    static WorkerPool pool;
    return pool;
  }
  Worker* calling_worker() {
    if (workers_.empty()) workers_.push_back(std::make_unique<Worker>());
    return workers_[0].get();
  }
  // Runs the launch on n workers (the calling thread is one of them).
  std::vector<Worker*> run(LaunchContext& launch, unsigned n) {
    while (workers_.size() < n) workers_.push_back(std::make_unique<Worker>());
    while (threads_.size() + 1 < n) {
      unsigned id = static_cast<unsigned>(threads_.size()) + 1;
      threads_.emplace_back([this, id] { loop(id); });
    }
    {
      std::lock_guard lock(mutex_);
      launch_ = &launch;
      active_ = n;
      pending_ = n - 1;
      ++generation_;
    }
    cv_.notify_all();
    workers_[0]->run_launch(launch);
    std::unique_lock lock(mutex_);
    done_cv_.wait(lock, [&] { return pending_ == 0; });
    launch_ = nullptr;
    std::vector<Worker*> used;
    for (unsigned i = 0; i < n; ++i) used.push_back(workers_[i].get());
    return used;
  }
  ~WorkerPool() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
      ++generation_;
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
  }

 private:
  void loop(unsigned id) {
    std::uint64_t seen = 0;
    for (;;) {
      LaunchContext* launch;
      {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        if (id >= active_) continue;
        launch = launch_;
      }
      workers_[id]->run_launch(*launch);
      std::lock_guard lock(mutex_);
      if (--pending_ == 0) done_cv_.notify_all();
    }
  }
  std::vector<std::unique_ptr<Worker>> workers_;
  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable cv_, done_cv_;
  LaunchContext* launch_ = nullptr;
  unsigned active_ = 0, pending_ = 0;
  std::uint64_t generation_ = 0;
  bool stop_ = false;
};

// CUDA's answer to a launch configuration the device cannot run, or "" if fine.
std::pair<int, std::string> check_config(const void* fn, const LaunchConfig& c, std::size_t static_shared) {
  const DeviceLimits& d = device_limits();
  const std::size_t shared_limit = std::max<std::size_t>(d.shared_per_block, dynamic_shared_limit(fn));
  constexpr int kInvalidConfiguration = 9, kInvalidValue = 1;
  if (volume(c.grid) == 0 || volume(c.block) == 0)
    return {kInvalidConfiguration, fmt::format("grid ({},{},{}) or block ({},{},{}) has a zero dimension", c.grid.x,
                                               c.grid.y, c.grid.z, c.block.x, c.block.y, c.block.z)};
  if (volume(c.block) > d.max_threads_per_block)
    return {kInvalidConfiguration, fmt::format("block of {} threads exceeds the device limit of {} threads per block",
                                               volume(c.block), d.max_threads_per_block)};
  if (c.block.x > d.max_block_dim_x || c.block.y > d.max_block_dim_y || c.block.z > d.max_block_dim_z)
    return {kInvalidConfiguration, fmt::format("block ({},{},{}) exceeds the device's per-dimension limits ({},{},{})",
                                               c.block.x, c.block.y, c.block.z, d.max_block_dim_x, d.max_block_dim_y,
                                               d.max_block_dim_z)};
  if (c.grid.x > d.max_grid_dim_x || c.grid.y > d.max_grid_dim_y || c.grid.z > d.max_grid_dim_z)
    return {kInvalidConfiguration, fmt::format("grid ({},{},{}) exceeds the device's limits ({},{},{})", c.grid.x,
                                               c.grid.y, c.grid.z, d.max_grid_dim_x, d.max_grid_dim_y, d.max_grid_dim_z)};
  if (c.dynamic_shared + static_shared > shared_limit)
    return {kInvalidValue,
            fmt::format("{} bytes of shared memory per block ({} dynamic + {} static) exceed the {} limit of {} bytes{}",
                        c.dynamic_shared + static_shared, c.dynamic_shared, static_shared, d.name, shared_limit,
                        shared_limit < d.shared_per_block_optin
                            ? fmt::format(" (up to {} with cudaFuncSetAttribute)", d.shared_per_block_optin)
                            : "")};
  return {0, ""};
}

int error_code_for(DiagKind k) {
  switch (k) {
    case DiagKind::OutOfBoundsGlobal: case DiagKind::OutOfBoundsShared: case DiagKind::InvalidAddress:
      return cudaErrorIllegalAddress;
    case DiagKind::Misaligned: return cudaErrorMisalignedAddress;
    case DiagKind::DeviceAssert: return cudaErrorAssert;
    default: return cudaErrorLaunchFailure;  // races, barriers, deadlocks: wrong on hardware, stopped here
  }
}

std::uint32_t next_serial() {
  static std::atomic<std::uint32_t> serial{0};
  return ++serial;
}

}  // namespace

int execute_launch(const void* kernel_fn, const LaunchConfig& cfg, const KernelBody& body) {
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
    records().push_back(std::move(rec));
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
  launch.serial = next_serial();
  launch.tag = static_cast<std::uint16_t>(launch.serial % 65535 + 1);

  unsigned n = static_cast<unsigned>(std::min<std::uint64_t>(worker_count(), launch.nblocks));
  launch.started = launch.last_report = std::chrono::steady_clock::now();
  launch.progress_worker = WorkerPool::instance().calling_worker();
  for (Worker* w : WorkerPool::instance().run(launch, n)) {
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
  records().push_back(std::move(rec));
  return code;
}

}  // namespace simt
