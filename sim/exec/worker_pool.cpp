#include "sim/exec/worker_pool.hpp"

namespace simt {

Worker* WorkerPool::calling_worker() {
  thread_local Worker* mine = nullptr;
  if (!mine) {
    std::lock_guard lock(mutex_);
    callers_.push_back(std::make_unique<Worker>());
    mine = callers_.back().get();
  }
  return mine;
}

void WorkerPool::run(LaunchContext& launch, unsigned n, const std::function<void(Worker&)>& collect) {
  std::vector<Helper*> mine;
  {
    std::lock_guard lock(mutex_);
    while (mine.size() + 1 < n) {
      if (idle_.empty()) {
        helpers_.push_back(std::make_unique<Helper>());
        Helper* h = helpers_.back().get();
        h->thread = std::thread([this, h] { serve(*h); });
        idle_.push_back(h);
      }
      mine.push_back(idle_.back());
      idle_.pop_back();
    }
    for (Helper* h : mine) h->launch = &launch, h->done = false;
  }
  cv_.notify_all();
  Worker& own = *calling_worker();
  own.run_launch(launch);
  {
    std::unique_lock lock(mutex_);
    done_cv_.wait(lock, [&] {
      for (Helper* h : mine)
        if (!h->done) return false;
      return true;
    });
  }
  collect(own);
  for (Helper* h : mine) collect(h->worker);
  std::lock_guard lock(mutex_);
  idle_.insert(idle_.end(), mine.begin(), mine.end());
}

void WorkerPool::serve(Helper& h) {
  for (;;) {
    LaunchContext* launch;
    {
      std::unique_lock lock(mutex_);
      cv_.wait(lock, [&] { return stop_ || h.launch; });
      if (stop_) return;
      launch = h.launch;
    }
    h.worker.run_launch(*launch);
    std::lock_guard lock(mutex_);
    h.launch = nullptr;
    h.done = true;
    done_cv_.notify_all();
  }
}

std::vector<Worker*> WorkerPool::run_cooperative(LaunchContext& launch) {
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

void WorkerPool::coop_loop(std::size_t id) {
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

WorkerPool::~WorkerPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    ++coop_generation_;
  }
  cv_.notify_all();
  for (auto& h : helpers_) h->thread.join();
  for (auto& t : coop_threads_) t.join();
}

}  // namespace simt
