// A worker runs blocks one after another: it owns the fiber stacks of one block's
// threads and schedules them round by round until every thread has finished.
#include "sim/exec/spin_watch.hpp"
#include "sim/exec/crash_guard.hpp"
#include "sim/check/global_checks.hpp"
#include "sim/memory/global_memory.hpp"
#include "sim/check/shared_checks.hpp"
#include "sim/count/dram_estimate.hpp"
#include "sim/exec/plain_twin.hpp"
#include "sim/exec/worker.hpp"

#include <fmt/format.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>

namespace simt {

namespace ctx = boost::context;

namespace {

constexpr std::size_t kStackBytes = 128 * 1024;
constexpr std::size_t kGuardBytes = 4096;

struct PoolStack {  // hands boost a stack from the worker's pool; never frees it
  ctx::stack_context sc;
  ctx::stack_context allocate() { return sc; }
  void deallocate(ctx::stack_context&) noexcept {}
};

}  // namespace

Worker::Worker() {
  std::size_t bytes = kMaxThreads * (kStackBytes + kGuardBytes);
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::runtime_error("simtlab: cannot reserve fiber stacks");
  stacks_ = reinterpret_cast<std::uintptr_t>(p);
  threads_.resize(kMaxThreads);
  to_thread.resize(kMaxThreads);
  warp_ops_.resize(kMaxThreads / 32);
}

Worker::~Worker() { munmap(reinterpret_cast<void*>(stacks_), kMaxThreads * (kStackBytes + kGuardBytes)); }

// A guard page below each stack, placed for as many threads as a block has needed:
// each splits the mapping in two, and the kernel's map count is limited (65530 by
// default), which a cooperative launch, holding every block's stacks at once, meets.
bool Worker::ensure_stacks(unsigned n) {
  for (; guarded_ < n; ++guarded_)
    if (mprotect(reinterpret_cast<void*>(stacks_ + guarded_ * (kStackBytes + kGuardBytes)), kGuardBytes, PROT_NONE))
      return false;
  return true;
}

void Worker::release_stacks() {
  if (guarded_ == 0) return;
  mprotect(reinterpret_cast<void*>(stacks_), guarded_ * (kStackBytes + kGuardBytes), PROT_READ | PROT_WRITE);
  guarded_ = 0;  // one mapping again
}

void Worker::begin_launch(LaunchContext& launch) {
  guard_this_thread();
  shared.prepare(*launch.module, launch.cfg.dynamic_shared);
  shared.set_kernel(launch.full_name);
  map_addresses();
  if (launch.global_pages) t_address_map.global_page_bytes = launch.global_pages;  // another GPU's memory: slow path
  t_address_map.serial = launch.serial;
  t_geometry = &launch.geometry;
  recent_allocations[0] = recent_allocations[1] = nullptr;
  site_cache_.fill({});  // per_site was emptied after the last launch
  tally_threads_ = launch.tally_threads;
  trace_.set_per_site(launch.trace_warps);
}

void Worker::end_launch() {
  t_geometry = nullptr;
  t_address_map = AddressMap{};  // host code after the launch must not look like a kernel
}

void Worker::run_launch(LaunchContext& launch) {
  begin_launch(launch);
  const bool reports_progress = this == launch.progress_worker && progress_callback();
  for (;;) {
    if (launch.failed.load(std::memory_order_relaxed)) break;
    const std::uint64_t k = launch.next_block.fetch_add(1);
    if (k >= launch.blocks.count) break;
    if (launch.uncounted) run_uncounted_block(launch, launch.blocks.block(k));
    else if (launch.record_work) run_recorded_block(launch, launch.blocks.block(k));
    else run_block(launch, launch.blocks.block(k));
    if (reports_progress) report_progress(launch);
  }
  end_launch();
}

// One block of a cooperative launch (sim/exec/grid_sync.hpp): it starts in its turn,
// runs until grid.sync() or its end, waits there for the turn to come back, and
// hands the turn on when it is done. A block that fails stops the others.
void Worker::run_cooperative(LaunchContext& launch, std::uint64_t linear) {
  begin_launch(launch);
  GridSync& grid = *launch.grid;
  if (grid.wait_turn(linear)) {
    run_block(launch, linear);
    if (launch.failed.load(std::memory_order_relaxed)) grid.stop();
  }
  grid.finish(linear);
  end_launch();
  release_stacks();  // the next cooperative launch may need the mappings for more blocks
}

void Worker::map_addresses() {
  const GlobalMemory& gm = GlobalMemory::instance();
  AddressMap& m = t_address_map;
  m.global_lo = gm.base();
  m.global_size = gm.arena_bytes();
  static_assert(GlobalMemory::kPageShift == 12, "record_fast (sim/state/context.hpp) indexes pages by 4 KiB");
  m.global_page_bytes = gm.page_bytes();
  m.statics_lo = shared.statics.lo;
  m.statics_size = shared.statics.hi - shared.statics.lo;
  m.statics_allowed = shared.allowed_words();
  m.dynamic_lo = shared.dynamic.lo;
  m.dynamic_bytes = shared.dynamic_bytes;
  m.dynamic_reserved = shared.dynamic.hi - shared.dynamic.lo;
  m.races = checks().races;
  m.uninitialized = checks().uninitialized;
  m.sector_flags = gm.sector_shadow(gm.base());
}

// Only the calling thread's worker reports, at most ten times a second, and only
// once a launch has run for half a second: short launches print nothing.
void Worker::report_progress(LaunchContext& launch) {
  auto now = std::chrono::steady_clock::now();
  if (now - launch.started < std::chrono::milliseconds(500) || now - launch.last_report < std::chrono::milliseconds(100))
    return;
  launch.last_report = now;
  std::uint64_t started =
      std::min(launch.blocks_before + launch.next_block.load(std::memory_order_relaxed), launch.nblocks);
  report_launch_progress(&launch, launch.kernel, started, launch.nblocks);
}

void Worker::run_block(LaunchContext& launch, std::uint64_t linear) {
  const dim3 g = launch.cfg.grid, bd = launch.cfg.block;
  if (!ensure_stacks(launch.threads_per_block)) {
    std::lock_guard lock(launch.diag_mutex);
    Diagnostic d;
    d.kind = DiagKind::Unsupported;
    d.block = {unsigned(linear % g.x), unsigned(linear / g.x % g.y), unsigned(linear / (std::uint64_t(g.x) * g.y))};
    d.message = fmt::format("the simulator cannot place the guard pages of {} more fiber stacks (the kernel's limit on "
                            "memory mappings, /proc/sys/vm/max_map_count); a cooperative launch holds every block's "
                            "threads at once: {} blocks of {} threads",
                            launch.threads_per_block, launch.nblocks, launch.threads_per_block);
    launch.faults.emplace_back(linear, d);
    launch.failed = true;
    return;
  }
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
  for (unsigned w = 0; w < b.nwarps; ++w) {
    logs_[w].reset_block();
    warp_ops_[w].clear();
  }
  rereads_.reset();
  b.logs = logs_.data();
  b.barrier_site.assign(b.nthreads, nullptr);
  b.barrier_value.assign(b.nthreads, 0);
  b.shared = &shared;
  shared.begin_block();
  t_block_idx = b.idx;
  if (tally_threads_) block_tally_.begin_block(b.nthreads);
  trace_block_ = launch.trace_warps > 0 && !launch.uncounted;
  trace_linear_ = linear;
  trace_seq_ = 0;
  row_extras_ = tally_threads_ || trace_block_;

  for (unsigned t = 0; t < b.nthreads; ++t) {
    ThreadState& ts = threads_[t];
    ts.thread_idx = {t % bd.x, t / bd.x % bd.y, t / (bd.x * bd.y)};
    ts.linear = t;
    ts.lane = t % 32;
    ts.warp = t / 32;
    ts.block = &b;
    ts.stack_size = kStackBytes;
    ts.log = &logs_[ts.warp];
    ts.ops.bind(&warp_ops_[ts.warp], ts.lane);
    start_inst_count(&ts);
    ts.abandoned = false;
    ts.flag_epoch = 0;
    b.warps[ts.warp].present |= 1u << ts.lane;
  }
  started_.assign(b.nthreads, 0);
  next_stack_ = 0;

  // A round: the first runnable thread runs until it parks or ends, then hands
  // control straight to the next runnable one, and the last back here. When none
  // can run, settle (barriers, collectives, deadlocks).
  while (!b.failed && !b.stopped) {
    if (unsigned t = next_runnable(b, 0); t < b.nthreads) {
      switched_from = kFromScheduler;
      accept(std::move(context_of(b, t)).resume());
      set_current_thread(nullptr);
    }
    if (b.failed || std::all_of(b.run.begin(), b.run.end(), [](Run r) { return r == Run::Done; })) break;
    if (std::none_of(b.run.begin(), b.run.end(), [](Run r) { return r == Run::Runnable; }) && !settle(b)) break;
  }
  if (b.stopped && !b.failed) {  // another block of a cooperative launch failed: its diagnostic is the launch's
    stop_fibers(b);
    return;
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
  // A plain block's accesses are mostly unseen (sampling.cpp): only counted blocks tally.
  if (tally_threads_ && !launch.uncounted) block_tally_.fold_into(thread_totals_, linear);
}

void Worker::hand_over_counters(Counters& to_totals, SiteCounters& to_per_site) {
  to_totals += totals;
  for (auto& [site, c] : per_site) to_per_site[site] += c;
  totals = {};
  per_site.clear();
}

void Worker::hand_over_thread_accesses(ThreadAccessTotals& to) {
  merge_thread_totals(to, thread_totals_);
  thread_totals_.clear();
}

void Worker::hand_over_trace(WarpTrace& to) { to.merge_from(trace_); }

// What a plain block records (its atomics, shuffles, barriers) is dropped: the launch's
// counters are the counted blocks', scaled (sim/shortcuts/sampling.cpp). Nor is it checked
// for races or uninitialised shared reads: its plain stores are not seen, so a
// recorded access (a shared atomic) would find its word unwritten.
void Worker::run_uncounted_block(LaunchContext& launch, std::uint64_t linear) {
  Counters kept = totals;
  SiteCounters kept_sites;
  kept_sites.swap(per_site);
  site_cache_.fill({});  // it points into the map
  AddressMap& m = t_address_map;
  const bool races = m.races, uninitialized = m.uninitialized;
  m.races = m.uninitialized = false;
  __simt_plain_block = 1;
  start_plain_pace();
  run_block(launch, linear);
  __simt_plain_block = 0;
  m.races = races;
  m.uninitialized = uninitialized;
  // Its DRAM sectors stay: the estimate counts each sector once a launch, over every
  // block (simt_cuda/hooks.h, __simt_translate_dram_inline).
  for (Counter once : kSectorEstimateCounters) kept[once] = totals[once];
  totals = kept;
  per_site.swap(kept_sites);
  site_cache_.fill({});
}

void Worker::run_recorded_block(LaunchContext& launch, std::uint64_t linear) {
  const Counters before = totals;
  run_block(launch, linear);
  block_work.push_back(simt::block_work(linear, before, totals));
}

unsigned Worker::next_runnable(const BlockState& b, unsigned from) const {
  while (from < b.nthreads && b.run[from] != Run::Runnable) ++from;
  return from;
}

boost::context::fiber& Worker::next_context(BlockState& b, unsigned after) {
  const unsigned next = b.failed ? b.nthreads : next_runnable(b, after + 1);
  return next < b.nthreads ? context_of(b, next) : to_scheduler;
}

boost::context::fiber& Worker::context_of(BlockState& b, unsigned first) {
  if (started_[first]) return to_thread[first];
  started_[first] = 1;
  const std::uintptr_t lo = stacks_ + next_stack_++ * (kStackBytes + kGuardBytes) + kGuardBytes;
  ctx::stack_context sc;
  sc.size = kStackBytes;
  sc.sp = reinterpret_cast<void*>(lo + kStackBytes);
  to_thread[first] = ctx::fiber(std::allocator_arg, PoolStack{sc}, [this, &b, first, lo](ctx::fiber&& from) {
    accept(std::move(from));
    for (unsigned t = first;;) {
      run_thread(b, t, lo);
      const unsigned next = b.failed ? b.nthreads : next_runnable(b, t + 1);
      if (next < b.nthreads && !started_[next]) {  // it starts here, on this stack
        started_[next] = 1;
        t = next;
        continue;
      }
      switched_from = kFinished;
      return std::move(next < b.nthreads ? to_thread[next] : to_scheduler);
    }
  });
  return to_thread[first];
}

void Worker::run_thread(BlockState& b, unsigned t, std::uintptr_t stack_lo) {
  threads_[t].stack_lo = stack_lo;
  set_current_thread(&threads_[t]);
  try {
    b.launch->body->run();
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

}  // namespace simt
