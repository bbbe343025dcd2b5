// Fence-and-atomic publications between the blocks of a launch, as data: the
// launch's log of releases and each block's acquisitions. The rules that read and
// write them are sim/check/release_acquire.hpp's.
#pragma once
#include <atomic>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace simt {

class ReleaseLog {
 public:
  void release(std::uintptr_t word, std::uint64_t block, std::uint32_t fence_epoch);
  std::uint32_t count(std::uintptr_t word) const;  // releases on `word` so far
  // Among the first `seen` releases on `word`: one by `block` that publishes a write of
  // its barrier interval `epoch15` (the race shadow's 15 bits)?
  bool publishes(std::uintptr_t word, std::uint32_t seen, std::uint64_t block, std::uint16_t epoch15) const;
  bool empty() const { return !any_.load(std::memory_order_acquire); }

 private:
  struct Release {
    std::uint64_t block;
    std::uint32_t fence_epoch;
  };
  mutable std::mutex mutex_;
  std::unordered_map<std::uintptr_t, std::vector<Release>> words_;
  std::atomic<bool> any_{false};
};

// What one block took by its atomics: read only by the block's own worker.
struct Acquired {
  std::uintptr_t word;
  std::uint32_t seen;    // releases on the word when the atomic completed
  std::uint32_t epoch;   // the acquiring block's barrier interval
  std::uint32_t thread;  // the acquiring thread (within the block)
};

}  // namespace simt
