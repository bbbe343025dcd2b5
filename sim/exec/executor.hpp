// Runs a kernel launch: checks the configuration, spreads blocks over worker
// threads, runs each block's threads as fibers, and collects the record.
#pragma once
#include "sim/exec/block_work.hpp"
#include "sim/exec/device_limits.hpp"
#include "sim/options/options.hpp"
#include "sim/state/launch_context.hpp"
#include "sim/state/launch_record.hpp"
#include "sim/types/vector_types.hpp"

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace simt {

// The kernel function with its arguments bound; run() executes one thread.
struct KernelBody {
  virtual ~KernelBody() = default;
  virtual void run() const = 0;
  // Appends the bytes of the argument values; false when they cannot be told
  // apart by bytes (then the launch is never taken for a repeat).
  virtual bool argument_bytes(std::vector<unsigned char>& out) const { (void)out; return false; }
  // A copy that can run later (a deferred launch, sim/shortcuts/deferred_launches.hpp); null
  // when the body cannot be copied.
  virtual std::unique_ptr<KernelBody> clone() const { return nullptr; }
};

// The bytes of the kernel's static __shared__ variables (0 for a kernel the
// simulator cannot name).
std::size_t kernel_static_shared_bytes(const void* kernel_fn);

// Checks the configuration, runs the blocks with `run_blocks` (run_every_block, or
// a sampling of them from above), appends the record and returns a cudaError_t
// value. `serial`: the launch's number in the shadows (0 when it did not run).
using BlockRunner = void (*)(LaunchContext& launch, unsigned workers, LaunchRecord& rec);
int run_launch(const void* kernel_fn, const LaunchConfig& cfg, const KernelBody& body, std::uint32_t& serial,
               BlockRunner run_blocks);
void run_every_block(LaunchContext& launch, unsigned workers, LaunchRecord& rec);
// One part of a launch: the blocks of `seq` on n workers; their counters go to
// `totals` and `per_site`, and with `work` each block's measures to it.
void run_part(LaunchContext& launch, unsigned n, BlockSequence seq, bool uncounted, Counters& totals,
              SiteCounters& per_site, std::vector<BlockWork>* work = nullptr);
void append_launch_record(LaunchRecord r);  // settings.cpp; read with launch_records()
void forget_launch_records();  // clear_launch_records (sim/shortcuts/launch.hpp) forgets what points at them first
LaunchRecord take_last_launch_record();     // removes it: a launch run again, or run late
LaunchRecord& mutable_launch_record(std::size_t index);  // the runtime adds the clock's times

// Settings of the simulated device and of the executor. They start from the
// process's options (sim/options/runtime_options.hpp); tests and `simt bench`
// change them directly between runs.
DeviceLimits& device_limits();
void set_worker_count(unsigned n);  // 0: the threads option (0 there: all cores)
unsigned worker_count();
struct Checks {
  bool races = true;       // shared and global race detection
  bool uninitialized = true;
};
Checks& checks();
// Replaces the process's options and the core's settings that start from them: the
// race checks, the workers (use_options, sim/shortcuts/launch.hpp, adds the repeat mode).
void use_core_options(const Options& o);
// Called now and then during long launches (from the launching thread) with the
// blocks started so far; the CLI draws a progress bar with it. Empty: no reports.
using ProgressFn = std::function<void(const std::string& kernel, std::uint64_t done, std::uint64_t total)>;
ProgressFn& progress_callback();
// Calls progress_callback for `launch`. Launches of several GPUs may run at once: one
// at a time shows its progress (the first to report, until it reports its end).
void report_launch_progress(const void* launch, const std::string& kernel, std::uint64_t done, std::uint64_t total);

}  // namespace simt
