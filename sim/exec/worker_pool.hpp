// The host threads that run launches' blocks: started when first needed, reused by
// every launch. The calling thread is always one of a launch's workers (its own
// Worker: a one-worker launch needs no other thread), and the others are helpers
// taken from the pool for the launch and given back when it ends. Launches on
// different GPUs may run at once (sim/exec/host_lock.hpp), each with its own helpers:
// a helper runs one launch at a time, because a block's static __shared__ variables
// are its host thread's thread-locals.
#pragma once
#include "sim/exec/worker.hpp"

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace simt {

class WorkerPool {
 public:
  static WorkerPool& instance() {
    static WorkerPool pool;
    return pool;
  }
  // The calling host thread's own worker.
  Worker* calling_worker();
  // Runs the launch on n workers (the calling thread's and n - 1 helpers), then hands
  // each worker to `collect` before its helper may serve another launch.
  void run(LaunchContext& launch, unsigned n, const std::function<void(Worker&)>& collect);
  // A cooperative launch (sim/exec/grid_sync.hpp): every block at once, block b on
  // worker b of a second set, each with its own host thread (a block's static
  // __shared__ variables are that thread's thread-locals). The calling thread waits.
  // Never two at once (a cooperative launch runs alone).
  std::vector<Worker*> run_cooperative(LaunchContext& launch);
  ~WorkerPool();

 private:
  // A host thread with its worker, serving one launch at a time.
  struct Helper {
    Worker worker;
    std::thread thread;
    LaunchContext* launch = nullptr;  // set: run it
    bool done = false;
  };
  void serve(Helper& h);
  void coop_loop(std::size_t id);

  std::mutex mutex_;
  std::condition_variable cv_, done_cv_;
  std::vector<std::unique_ptr<Worker>> callers_;  // one per host thread that launched
  std::vector<std::unique_ptr<Helper>> helpers_;
  std::vector<Helper*> idle_;
  bool stop_ = false;

  std::vector<std::unique_ptr<Worker>> coop_workers_;
  std::vector<std::thread> coop_threads_;
  LaunchContext* coop_launch_ = nullptr;
  std::size_t coop_active_ = 0, coop_pending_ = 0;
  std::uint64_t coop_generation_ = 0;
};

}  // namespace simt
