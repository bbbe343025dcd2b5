// The host threads that run a launch's blocks: started once, reused by every launch.
// The calling thread is always worker 0, so a one-worker launch needs no thread.
#pragma once
#include "sim/exec/worker.hpp"

#include <condition_variable>
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
  // A cooperative launch (sim/exec/grid_sync.hpp): every block at once, block b on
  // worker b of a second set, each with its own host thread (a block's static
  // __shared__ variables are that thread's thread-locals). The calling thread waits.
  std::vector<Worker*> run_cooperative(LaunchContext& launch) {
    const std::size_t n = launch.nblocks;
    while (coop_workers_.size() < n) coop_workers_.push_back(std::make_unique<Worker>());
    while (coop_threads_.size() < n) {
      const std::size_t id = coop_threads_.size();
      coop_threads_.emplace_back([this, id] { coop_loop(id); });
    }
    {
      std::lock_guard lock(mutex_);
      coop_launch_ = &launch;
      coop_active_ = n;
      coop_pending_ = n;
      ++coop_generation_;
    }
    cv_.notify_all();
    std::unique_lock lock(mutex_);
    done_cv_.wait(lock, [&] { return coop_pending_ == 0; });
    coop_launch_ = nullptr;
    std::vector<Worker*> used;
    for (std::size_t i = 0; i < n; ++i) used.push_back(coop_workers_[i].get());
    return used;
  }
  ~WorkerPool() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
      ++generation_;
      ++coop_generation_;
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
    for (auto& t : coop_threads_) t.join();
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
  void coop_loop(std::size_t id) {
    std::uint64_t seen = 0;
    for (;;) {
      LaunchContext* launch;
      {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [&] { return stop_ || coop_generation_ != seen; });
        if (stop_) return;
        seen = coop_generation_;
        if (id >= coop_active_) continue;
        launch = coop_launch_;
      }
      coop_workers_[id]->run_cooperative(*launch, id);
      std::lock_guard lock(mutex_);
      if (--coop_pending_ == 0) done_cv_.notify_all();
    }
  }
  std::vector<std::unique_ptr<Worker>> workers_;
  std::vector<std::unique_ptr<Worker>> coop_workers_;
  std::vector<std::thread> coop_threads_;
  LaunchContext* coop_launch_ = nullptr;
  std::size_t coop_active_ = 0, coop_pending_ = 0;
  std::uint64_t coop_generation_ = 0;
  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable cv_, done_cv_;
  LaunchContext* launch_ = nullptr;
  unsigned active_ = 0, pending_ = 0;
  std::uint64_t generation_ = 0;
  bool stop_ = false;
};


}  // namespace simt
