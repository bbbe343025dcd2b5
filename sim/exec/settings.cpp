// The executor's settings and the launch records: process-wide state that the CLI,
// the runtime and the workers share.
#include "sim/exec/executor.hpp"
#include "sim/exec/launch_digest.hpp"
#include "sim/exec/worker.hpp"
#include "sim/options/runtime_options.hpp"

#include <algorithm>
#include <mutex>
#include <thread>

namespace simt {

thread_local constinit ThreadState* t_thread SIMT_FAST_TLS = nullptr;
thread_local constinit const LaunchGeometry* t_geometry SIMT_FAST_TLS = nullptr;
thread_local constinit uint3 t_block_idx SIMT_FAST_TLS{};
thread_local constinit std::uintptr_t t_stack_lo SIMT_FAST_TLS = 0, t_stack_size SIMT_FAST_TLS = 0;

namespace {

std::vector<LaunchRecord>& records() {
  static std::vector<LaunchRecord> r;
  return r;
}

unsigned default_workers() {
  if (const std::uint64_t n = runtime_options().threads) return static_cast<unsigned>(std::min<std::uint64_t>(n, 4096));
  return std::max(1u, std::thread::hardware_concurrency());
}
unsigned g_workers = 0;

}  // namespace

const std::vector<LaunchRecord>& launch_records() { return records(); }
void forget_launch_records() { records().clear(); }

DeviceLimits& device_limits() {
  static DeviceLimits limits;
  return limits;
}
void set_worker_count(unsigned n) { g_workers = n; }
unsigned worker_count() { return g_workers ? g_workers : default_workers(); }
// races=off (`simt exec --no-races`) turns race detection off, and with it the race
// shadow's memory (16 bytes per word of device memory touched); uninitialized=0
// lets a block read shared memory it never wrote.
Checks& checks() {
  static Checks c = [] {
    Checks init;
    init.races = runtime_options().races != RaceChecks::off;
    init.uninitialized = runtime_options().uninitialized;
    return init;
  }();
  return c;
}

void use_core_options(const Options& o) {
  mutable_runtime_options() = o;
  checks().races = o.races != RaceChecks::off;
  checks().uninitialized = o.uninitialized;
  g_workers = 0;
}
ProgressFn& progress_callback() {
  static ProgressFn fn;
  return fn;
}

void report_launch_progress(const void* launch, const std::string& kernel, std::uint64_t done,
                            std::uint64_t total) {
  static std::mutex mutex;
  static const void* showing = nullptr;
  std::lock_guard lock(mutex);
  if (!showing) showing = launch;
  if (showing != launch) return;
  if (done >= total) showing = nullptr;
  progress_callback()(kernel, done, total);
}

void append_launch_record(LaunchRecord r) {
  write_launch_digest(r);  // for `simt validate`; nothing unless asked for
  records().push_back(std::move(r));
}
LaunchRecord& mutable_launch_record(std::size_t index) { return records().at(index); }
LaunchRecord take_last_launch_record() {
  LaunchRecord r = std::move(records().back());
  records().pop_back();
  return r;
}

}  // namespace simt
