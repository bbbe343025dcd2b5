// Repeats that change memory, counted and timed now, executed only when something
// could see what they did (docs/exec.md, 'Deferred repeats').
//
// A benchmark launches an in-place kernel (adamw's update, a bias added to a GEMM's
// output, an atomic scatter) hundreds of times and never reads the result. Such a
// repeat cannot be skipped (each run changes memory), but it need not run yet: it
// joins this queue with the counters and time of the identical launch before it
// (sim/shortcuts/repeat_launch.hpp). The queue runs, in order, before anything that could
// observe its effect:
//   - the host reads or writes sectors it touched (a copy, a memset, a __constant__
//     symbol write, a cuBLAS product on them);
//   - a launch not seen before reads what the queue writes or writes what it
//     touches: that launch is run once on memory as it is, for its counters, then
//     undone and queued behind the rest (sim/exec/executor.cpp);
//   - anything launched after the program freed a buffer the queue uses (the release
//     waits for the queue, so a use after free is still caught), unless an allocation
//     of the same size took that buffer over first (a launcher's per-call temporary).
// A cudaMemset into sectors the queue touches joins the queue instead of running it.
// What nothing ever reads (the benchmark ends, the program frees its buffers and
// exits) never runs. Device memory as the host sees it is always what a GPU would
// hold. What a deferred launch's record holds is the counters of the launch it
// repeats; when it runs later, its footprint is checked against the one assumed.
#pragma once
#include "sim/shortcuts/launch_footprint.hpp"
#include "sim/state/launch_record.hpp"

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

namespace simt {

// One queued launch or library call: run() executes it.
struct DeferredWork {
  virtual ~DeferredWork() = default;
  virtual void run() = 0;
};

class DeferredLaunches {
 public:
  static DeferredLaunches& instance();

  bool empty() const { return queue_.empty(); }
  std::size_t size() const { return queue_.size(); }
  // Queues work whose sectors are `footprint` (known).
  void add(std::unique_ptr<DeferredWork> work, const LaunchFootprint& footprint);
  // Would running work with this footprint now, ahead of the queue, see or change
  // what the queue does? (It reads what the queue writes, or writes what it touches.)
  bool conflicts_with(const LaunchFootprint& footprint) const;
  // The host is about to read or write device bytes [p, p + bytes): the queue runs
  // first if it touches them.
  void before_host_access(const void* p, std::size_t bytes);
  // Does the queue touch any of the device bytes [p, p + bytes)?
  bool touches(const void* p, std::size_t bytes) const;
  // cudaFree(p) of an allocation of `bytes`: true when the queue touches it, and the
  // release is held until the queue runs (release_held does it) or the program ends.
  bool hold_release(void* p, std::size_t bytes);
  bool holds(const void* p) const;
  // An allocation of `bytes` may take over a held range of exactly that size, lowest
  // first (sim/cuda/runtime.cpp): everything that touches the range from then on goes
  // through the queue in program order, as what touched it before the free does.
  // Returns the range's base, no longer held, or null. `size_of` gives a held
  // allocation's size.
  void* adopt_held(std::size_t bytes, const std::function<std::size_t(void*)>& size_of);
  bool holding_releases() const { return !held_.empty(); }
  // Runs everything queued, in order, then the held releases.
  void run_all();

  // How the runtime learns of frees it held (it does the release) and of an error a
  // late launch hit (it makes the error sticky, as a fault in that launch would be).
  std::function<void(void*)> release_held;
  std::function<void(const LaunchRecord&)> late_error;

 private:
  std::vector<std::unique_ptr<DeferredWork>> queue_;
  SectorRuns touched_, written_;  // of everything queued
  std::vector<void*> held_;
};

}  // namespace simt
