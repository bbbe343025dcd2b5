#include "sim/state/release_log.hpp"

namespace simt {

void ReleaseLog::release(std::uintptr_t word, std::uint64_t block, std::uint32_t fence_epoch) {
  std::lock_guard lock(mutex_);
  words_[word].push_back({block, fence_epoch});
  any_.store(true, std::memory_order_release);
}

std::uint32_t ReleaseLog::count(std::uintptr_t word) const {
  std::lock_guard lock(mutex_);
  auto it = words_.find(word);
  return it == words_.end() ? 0 : static_cast<std::uint32_t>(it->second.size());
}

bool ReleaseLog::publishes(std::uintptr_t word, std::uint32_t seen, std::uint64_t block, std::uint16_t epoch15) const {
  std::lock_guard lock(mutex_);
  auto it = words_.find(word);
  if (it == words_.end()) return false;
  for (std::uint32_t i = 0; i < seen && i < it->second.size(); ++i) {
    const Release& r = it->second[i];
    // The write's interval is at or before the fence's, modulo the shadow's 15 bits.
    if (r.block == block && ((r.fence_epoch - epoch15) & 0x7FFF) < 0x4000) return true;
  }
  return false;
}

}  // namespace simt
