// Runs a kernel launch: checks the configuration, spreads blocks over worker
// threads, runs each block's threads as fibers, and collects the record.
#pragma once
#include "sim/exec/device_limits.hpp"
#include "sim/options/options.hpp"
#include "sim/report/launch_record.hpp"
#include "sim/cuda/vector_types.hpp"

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
  // A copy that can run later (a deferred launch, sim/exec/deferred_launches.hpp); null
  // when the body cannot be copied.
  virtual std::unique_ptr<KernelBody> clone() const { return nullptr; }
};

struct LaunchConfig {
  dim3 grid, block;
  std::size_t dynamic_shared = 0;
  const void* stream = nullptr;  // a cudaStream_t; null: the legacy default stream
  // cudaLaunchCooperativeKernel: every block resident at once, grid_group::sync()
  // allowed (a grid larger than the device holds is refused with 720).
  bool cooperative = false;
};

// The bytes of the kernel's static __shared__ variables (0 for a kernel the
// simulator cannot name).
std::size_t kernel_static_shared_bytes(const void* kernel_fn);

// Returns a cudaError_t value and appends a LaunchRecord.
int execute_launch(const void* kernel_fn, const LaunchConfig& cfg, const KernelBody& body);
// Appends the record of a skipped repeat of launch match.record_index (sim/exec/repeat_launch.hpp).
struct RepeatMatch;
void append_repeat_record(const RepeatMatch& match);
void append_launch_record(LaunchRecord r);  // settings.cpp; read with launch_records()
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
// Replaces the process's options (`simt run`: its flags over $SIMT_OPTIONS) and the
// settings that start from them: the race checks, the repeat mode, the workers.
void use_options(const Options& o);
// Called now and then during long launches (from the launching thread) with the
// blocks started so far; the CLI draws a progress bar with it. Empty: no reports.
using ProgressFn = std::function<void(const std::string& kernel, std::uint64_t done, std::uint64_t total)>;
ProgressFn& progress_callback();

}  // namespace simt
