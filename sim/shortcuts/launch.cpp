// execute_launch, the launch a program makes: a repeat of an earlier launch is not run
// again (sim/shortcuts/repeat_launch.hpp), one that changes memory may be deferred
// until something reads what it writes (deferred_launches.hpp) or replayed from an
// earlier run's outputs (content_memo.hpp); the rest run, sampled when an exact run
// would take too long (sampling.hpp), through the core's run_launch.
#include "sim/shortcuts/launch.hpp"

#include "util/host_memory.hpp"

#include "sim/exec/device_output.hpp"
#include "sim/exec/devices.hpp"
#include "sim/exec/executor.hpp"
#include "sim/exec/host_lock.hpp"
#include "sim/memory/device_heap.hpp"
#include "sim/memory/global_memory.hpp"
#include "sim/shortcuts/content_memo.hpp"
#include "sim/shortcuts/deferred_launches.hpp"
#include "sim/shortcuts/memory_snapshot.hpp"
#include "sim/shortcuts/race_shadow_budget.hpp"
#include "sim/shortcuts/repeat_launch.hpp"
#include "sim/shortcuts/sampling.hpp"
#include "sim/symbols/compiler_sites.hpp"
#include "util/host_memory.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <optional>
#include <utility>

namespace simt {

// A skipped repeat: the record of the launch it repeats, marked as such. The
// first inexact one (RepeatMode::All) says on stderr that memory may now differ.
void append_repeat_record(const RepeatMatch& m) {
  LaunchRecord r = launch_records()[m.record_index];
  r.repeat_of = m.record_index + 1;
  r.repeat_inexact = !m.exact;
  r.deferred = r.ran_late = false;  // the launch repeated may have been; the caller says if this one is
  r.wall_seconds = 0;
  static bool warned = false;
  if (!m.exact && !warned) {
    warned = true;
    fmt::print(stderr,
               "simt: --skip-all-repeats: launch {} ({}) repeats launch {}, which may change memory (it {}); it "
               "was not executed, so device memory may differ from a GPU's from here on\n",
               launch_records().size() + 1, r.kernel, r.repeat_of, m.why);
  }
  append_launch_record(std::move(r));
}


namespace {

// A launch as it ran: its record's index, the number its shadows used (0 when it was
// refused and ran nothing) and the sectors it touched.
struct Ran {
  int code = 0;
  std::uint32_t serial = 0;
  std::size_t index = 0;
  LaunchFootprint footprint;
};

Ran run_tracked(const void* kernel_fn, const LaunchConfig& cfg, const KernelBody& body, bool keep_footprint) {
  Ran r;
  r.code = run_launch(kernel_fn, cfg, body, r.serial, run_blocks);
  r.index = launch_records().size() - 1;
  mutable_launch_record(r.index).printed = r.serial && take_device_output_calls(r.serial) != 0;
  if (r.serial) r.footprint = take_launch_footprint(r.serial, keep_footprint);
  if (launch_records()[r.index].counted_blocks) widen_to_allocations(r.footprint);
  return r;
}

// Why a repeat of this launch could change memory, as far as its record tells; empty
// when nothing does.
std::string launch_impurity(const LaunchRecord& rec) {
  std::string impure = record_impurity(rec);
  if (impure.empty() && !checks().races) impure = "ran without the race checks, which rule out races between its blocks";
  return impure;
}

// Tells the repeat rule what the launch did: its writes change the launches kept,
// and it is kept itself when its arguments are known.
void note_for_repeats(const void* kernel_fn, std::optional<LaunchKey> key, Ran& r) {
  RepeatLaunches& repeats = RepeatLaunches::instance();
  if (!r.serial || repeats.mode() == RepeatMode::Never) return;
  const LaunchRecord& rec = launch_records()[r.index];
  // A kernel the compiler pass did not build (`simt bench`'s plain copies) may write memory through pointers the footprint never sees.
  const bool all_writes_seen = instrumented_kernel(kernel_fn);
  repeats.executed(std::move(key), r.index, rec.error == 0 && !rec.printed, launch_impurity(rec), r.footprint,
                   all_writes_seen);
}

// The executed launch whose counters record `index` holds (a repeat's are another's).
std::size_t origin_of(std::size_t index) {
  const std::size_t of = launch_records()[index].repeat_of;
  return of ? of - 1 : index;
}

// May a repeat of this launch be replayed (sim/shortcuts/content_memo.hpp)? Its result must
// follow from the memory it read and the order its blocks ran in: the bytes written
// back are then those of an order a GPU could take too (atomics and races included).
bool replayable(const void* kernel_fn, const LaunchRecord& rec, const LaunchFootprint& footprint) {
  return rec.error == 0 && !rec.printed && instrumented_kernel(kernel_fn) && footprint.known;
}

// Tells the content memo how a launch with this key ran; `before`: its inputs' hash.
void note_for_memo(const void* kernel_fn, const LaunchKey& key, std::optional<ContentDigest> before,
                   std::size_t record_index, const LaunchRecord& rec, const LaunchFootprint& footprint) {
  if (RepeatLaunches::instance().mode() == RepeatMode::Never) return;
  std::string impure = launch_impurity(rec);
  if (impure.empty() && footprint.read_then_written) impure = "reads what it writes";
  ContentMemo::instance().ran(key, before, origin_of(record_index), footprint, replayable(kernel_fn, rec, footprint),
                              std::move(impure));
}

// The calling host thread's current device, set to `device` while a deferred launch
// runs (its LaunchContext takes the GPU from it) and given back after.
class LaunchedOn {
 public:
  explicit LaunchedOn(int device) : host_device_(current_device()) { set_current_device(device); }
  ~LaunchedOn() { set_current_device(host_device_); }
  LaunchedOn(const LaunchedOn&) = delete;
  LaunchedOn& operator=(const LaunchedOn&) = delete;

 private:
  int host_device_;
};

// A launch queued behind deferred work, run when something reads what it writes.
class DeferredKernel final : public DeferredWork {
 public:
  DeferredKernel(const void* kernel_fn, const LaunchConfig& cfg, std::unique_ptr<KernelBody> body,
                 std::size_t record, LaunchFootprint assumed, std::optional<LaunchKey> key)
      : kernel_fn_(kernel_fn), cfg_(cfg), body_(std::move(body)), record_(record), assumed_(std::move(assumed)),
        key_(std::move(key)) {}

  void run() override {
    LaunchRecord& queued = mutable_launch_record(record_);
    queued.ran_late = true;
    // It runs on the GPU it was launched on, whichever GPU the host thread uses now.
    const LaunchedOn launched_on(queued.device);
    // Its turn has come: memory is as a GPU would hold it, so its inputs may be
    // compared with an earlier run's.
    std::optional<ContentDigest> before;
    ContentMemo& memo = ContentMemo::instance();
    if (key_ && memo.knows(*key_) && (before = memo.digest_inputs(*key_)) && memo.replay(*key_, *before)) {
      queued.replayed = true;
      return;
    }
    Ran r = run_tracked(kernel_fn_, cfg_, *body_, true);
    LaunchRecord ran = take_last_launch_record();
    LaunchRecord& rec = mutable_launch_record(record_);
    if (key_) note_for_memo(kernel_fn_, *key_, before, record_, ran, r.footprint);
    if (ran.error) {
      rec.error = ran.error;
      rec.diagnostics = std::move(ran.diagnostics);
      if (DeferredLaunches::instance().late_error) DeferredLaunches::instance().late_error(rec);
    } else if (!same_footprint(r.footprint, assumed_)) {
      // Its addresses depend on data that changed since the launch its sectors were
      // assumed from: the order of what ran since may not have been a GPU's.
      fmt::print(stderr,
                 "simt: launch {} ({}) was deferred and ran late, and touched other memory than it was assumed to "
                 "(its addresses depend on data that changed): device memory may differ from a GPU's from here on; "
                 "run with --no-skip-repeats for an exact run\n",
                 record_ + 1, rec.kernel);
    }
  }

 private:
  const void* kernel_fn_;
  LaunchConfig cfg_;
  std::unique_ptr<KernelBody> body_;
  std::size_t record_;
  LaunchFootprint assumed_;
  std::optional<LaunchKey> key_;  // for the content memo; none for a launch run ahead of the queue
};

// A snapshot of device memory costs a copy of it: taken only while the machine has
// room for it twice over (otherwise the queue runs, and the launch after it).
bool snapshot_affordable() { return GlobalMemory::instance().bytes_in_use() <= available_host_bytes() / 2; }

// A new launch while work is deferred: run it on memory as it is, for its counters.
// If it neither reads what the queue writes nor writes what the queue touches, it is
// done; otherwise it is undone and queued behind the rest — unless it failed or
// printed, when the queue runs first and then it runs for real.
int execute_ahead(const void* kernel_fn, const LaunchConfig& cfg, const KernelBody& body, LaunchKey key,
                  std::unique_ptr<KernelBody> copy) {
  DeferredLaunches& deferred = DeferredLaunches::instance();
  const MemorySnapshot before = MemorySnapshot::take();
  hold_device_output();
  Ran r = run_tracked(kernel_fn, cfg, body, true);
  if (!r.serial || !deferred.conflicts_with(r.footprint)) {
    release_device_output(true);
    note_for_repeats(kernel_fn, std::move(key), r);
    return r.code;
  }
  release_device_output(false);
  const LaunchRecord& rec = launch_records()[r.index];
  if (rec.error || rec.printed || !r.footprint.known) {
    before.restore_all();
    take_last_launch_record();
    deferred.run_all();
    Ran again = run_tracked(kernel_fn, cfg, body, true);
    note_for_repeats(kernel_fn, std::move(key), again);
    return again.code;
  }
  before.restore(r.footprint.written);
  mutable_launch_record(r.index).deferred = true;
  note_for_repeats(kernel_fn, std::move(key), r);
  deferred.add(std::make_unique<DeferredKernel>(kernel_fn, cfg, std::move(copy), r.index, r.footprint, std::nullopt),
               r.footprint);
  return 0;
}

// Writes back the outputs of an earlier run whose inputs held the bytes they hold
// now, when there is one (sim/shortcuts/content_memo.hpp); `before` gets the inputs' hash.
bool replay_launch(const LaunchKey& key, std::optional<ContentDigest>& before) {
  ContentMemo& memo = ContentMemo::instance();
  if (!(before = memo.digest_inputs(key))) return false;
  const std::optional<Replay> hit = memo.replay(key, *before);
  if (!hit) return false;
  append_repeat_record(RepeatMatch{hit->record_index, true, false, {}, {}});
  mutable_launch_record(launch_records().size() - 1).replayed = true;
  RepeatLaunches::instance().executed(key, hit->record_index, true, hit->impure, hit->footprint, true);
  return true;
}

// Whether the launch needs the process to itself (sim/exec/host_lock.hpp): deferred work
// may run, or memory be copied and restored, around it; a cooperative grid takes the
// cooperative workers; a kernel the compiler did not build opens every allocation to
// plain access; device malloc shares one running heap; the race checks may be cut.
bool needs_process_alone(const void* kernel_fn, const LaunchConfig& cfg) {
  const DeferredLaunches& deferred = DeferredLaunches::instance();
  return !deferred.empty() || deferred.holding_releases() || cfg.cooperative || !instrumented_kernel(kernel_fn) ||
         program_uses_device_heap() || race_shadow_too_big();
}

}  // namespace

int execute_launch(const void* kernel_fn, const LaunchConfig& cfg, const KernelBody& body) {
  // First, before anything is read: it may wait for other GPUs' launches to end.
  const LaunchSlot slot(needs_process_alone(kernel_fn, cfg));
  fit_race_shadow(launch_records().size() + 1);
  LaunchKey key{kernel_fn, cfg.grid, cfg.block, cfg.dynamic_shared, cfg.stream, {}};
  // A cooperative launch is never taken for a repeat, nor a plain launch for one of it
  // (grid.is_valid() tells them apart).
  const bool known_args = !cfg.cooperative && body.argument_bytes(key.args);
  RepeatLaunches& repeats = RepeatLaunches::instance();
  DeferredLaunches& deferred = DeferredLaunches::instance();
  // While a freed buffer waits for the queue, nothing new is deferred or run ahead:
  // the queue runs, the buffer is released, and a use after free faults as it should.
  const bool may_defer = repeats.mode() == RepeatMode::Defer && !deferred.holding_releases();
  if (known_args)
    if (auto prev = repeats.repeat_of(key)) {
      if (!prev->defer) {
        append_repeat_record(*prev);
        return 0;
      }
      if (auto copy = may_defer ? body.clone() : nullptr) {
        append_repeat_record(*prev);
        const std::size_t index = launch_records().size() - 1;
        mutable_launch_record(index).deferred = true;
        repeats.deferred(prev->footprint);
        deferred.add(std::make_unique<DeferredKernel>(kernel_fn, cfg, std::move(copy), index, prev->footprint, key),
                     prev->footprint);
        return 0;
      }
    }
  // Inputs hashed while deferred work is queued must be ones it does not write.
  ContentMemo& memo = ContentMemo::instance();
  const bool memo_knows = known_args && repeats.mode() != RepeatMode::Never && memo.knows(key);
  std::optional<ContentDigest> before;
  if (memo_knows && !deferred.conflicts_with(memo.reach(key)) && replay_launch(key, before)) return 0;
  if (!deferred.empty()) {
    std::unique_ptr<KernelBody> copy;
    if (may_defer && known_args && instrumented_kernel(kernel_fn) && snapshot_affordable() && (copy = body.clone()))
      return execute_ahead(kernel_fn, cfg, body, std::move(key), std::move(copy));
    deferred.run_all();
  }
  if (memo_knows && !before && replay_launch(key, before)) return 0;
  Ran r = run_tracked(kernel_fn, cfg, body, repeats.mode() != RepeatMode::Never);
  if (known_args) note_for_memo(kernel_fn, key, before, r.index, launch_records()[r.index], r.footprint);
  note_for_repeats(kernel_fn, known_args ? std::optional<LaunchKey>(std::move(key)) : std::nullopt, r);
  return r.code;
}

// The repeat candidate is an index into the records: it goes with them.
void clear_launch_records() {
  DeferredLaunches::instance().run_all();  // they update their records
  forget_launch_records();
  RepeatLaunches::instance().forget();
  ContentMemo::instance().forget();
}

void use_options(const Options& o) {
  use_core_options(o);
  RepeatLaunches::instance().set_mode(repeat_mode(o.skip_repeats));
}

}  // namespace simt
