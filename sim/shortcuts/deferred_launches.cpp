#include "sim/shortcuts/deferred_launches.hpp"

#include "sim/memory/global_memory.hpp"

#include <algorithm>

namespace simt {

DeferredLaunches& DeferredLaunches::instance() {
  static DeferredLaunches d;
  return d;
}

void DeferredLaunches::add(std::unique_ptr<DeferredWork> work, const LaunchFootprint& footprint) {
  queue_.push_back(std::move(work));
  touched_ = merge_runs(touched_, footprint.touched);
  written_ = merge_runs(written_, footprint.written);
}

bool DeferredLaunches::conflicts_with(const LaunchFootprint& footprint) const {
  if (queue_.empty()) return false;
  return !footprint.known || overlaps(footprint.touched, written_) || overlaps(footprint.written, touched_);
}

void DeferredLaunches::before_host_access(const void* p, std::size_t bytes) {
  if (touches(p, bytes)) run_all();
}

bool DeferredLaunches::touches(const void* p, std::size_t bytes) const {
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  return !queue_.empty() && GlobalMemory::instance().contains(addr) && overlaps_bytes(touched_, addr, bytes);
}

void* DeferredLaunches::adopt_held(std::size_t bytes, const std::function<std::size_t(void*)>& size_of) {
  auto best = held_.end();
  for (auto it = held_.begin(); it != held_.end(); ++it)
    if (size_of(*it) == bytes && (best == held_.end() || *it < *best)) best = it;
  if (best == held_.end()) return nullptr;
  void* p = *best;
  held_.erase(best);
  return p;
}

bool DeferredLaunches::hold_release(void* p, std::size_t bytes) {
  if (queue_.empty() || !overlaps_bytes(touched_, reinterpret_cast<std::uintptr_t>(p), bytes)) return false;
  held_.push_back(p);
  return true;
}

bool DeferredLaunches::holds(const void* p) const { return std::find(held_.begin(), held_.end(), p) != held_.end(); }

void DeferredLaunches::run_all() {
  // Taken out first: what runs may ask whether the queue is empty.
  std::vector<std::unique_ptr<DeferredWork>> queue = std::move(queue_);
  std::vector<void*> held = std::move(held_);
  queue_.clear(), held_.clear(), touched_.clear(), written_.clear();
  for (auto& w : queue) w->run();
  for (void* p : held)
    if (release_held) release_held(p);
}

}  // namespace simt
