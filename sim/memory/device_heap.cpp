#include "sim/memory/device_heap.hpp"

#include "sim/memory/global_memory.hpp"

#include <fmt/format.h>

#include <array>
#include <atomic>
#include <memory>

namespace simt {

namespace {
constexpr std::size_t kAlign = 16;  // device malloc's alignment
// Free bytes after each block, so that a short overrun lands in no block and is
// reported as the block's, not taken for an access to the next block.
constexpr std::size_t kRedZone = 16;
constexpr int kHeaps = 1024;        // one per simulated GPU (sim/exec/devices.hpp, kMaxDevices)
std::atomic<bool> g_used{false};
DeviceHeap* g_running = nullptr;

std::size_t round_up(std::size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }
}  // namespace

void note_program_uses_device_heap() { g_used = true; }
bool program_uses_device_heap() { return g_used; }

DeviceHeap& DeviceHeap::of(int device) {
  static std::array<std::unique_ptr<DeviceHeap>, kHeaps> heaps;
  auto& h = heaps[static_cast<std::size_t>(device) % kHeaps];
  if (!h) h = std::make_unique<DeviceHeap>();
  return *h;
}

DeviceHeap* DeviceHeap::running() { return g_running; }

bool DeviceHeap::set_limit(std::size_t bytes) {
  std::lock_guard lock(mutex_);
  if (base_) return false;
  limit_ = bytes;
  return true;
}

void DeviceHeap::prepare(int device) {
  g_running = this;
  std::lock_guard lock(mutex_);
  if (base_ || !program_uses_device_heap() || limit_ == 0) return;
  void* p = GlobalMemory::instance().allocate_heap(limit_, device);
  if (!p) return;  // no room: every device malloc returns NULL, as from a full heap
  base_ = reinterpret_cast<std::uintptr_t>(p);
  free_ = {{0, limit_}};
  blocks_.clear();
}

void* DeviceHeap::allocate(std::size_t bytes) {
  if (bytes == 0 || bytes > limit_) return nullptr;
  const std::size_t need = round_up(bytes) + kRedZone;
  std::lock_guard lock(mutex_);
  if (!base_) return nullptr;
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < need) continue;
    const auto [offset, size] = *it;
    free_.erase(it);
    if (size > need) free_.emplace(offset + need, size - need);
    blocks_.emplace(offset, Block{need, bytes});
    return reinterpret_cast<void*>(base_ + offset);
  }
  return nullptr;
}

bool DeviceHeap::release(void* p) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  std::lock_guard lock(mutex_);
  if (!base_ || a < base_) return false;
  auto it = blocks_.find(a - base_);
  if (it == blocks_.end()) return false;
  const std::size_t offset = it->first;
  std::size_t size = it->second.bytes;
  blocks_.erase(it);
  // Merged with the free ranges beside it, so large requests fit again.
  auto next = free_.lower_bound(offset);
  if (next != free_.end() && next->first == offset + size) size += next->second, next = free_.erase(next);
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == offset) {
      prev->second += size;
      return true;
    }
  }
  free_.emplace(offset, size);
  return true;
}

std::string DeviceHeap::outside_block(std::uintptr_t addr, std::size_t size) {
  std::lock_guard lock(mutex_);
  if (!base_ || addr < base_) return {};
  const std::size_t at = addr - base_;
  auto after = blocks_.upper_bound(at);
  if (after == blocks_.begin()) return fmt::format("in the device malloc heap, before its first live block");
  const auto& [offset, block] = *std::prev(after);
  const std::size_t into = at - offset;
  if (into + size <= block.requested) return {};
  const std::uintptr_t start = base_ + offset;
  if (into >= block.bytes)  // past the block and its alignment padding: free heap, or the next block's
    return fmt::format("byte {} of a {}-byte block from device malloc (at 0x{:x}), past its end, where no live "
                       "block is (freed, or never handed out)",
                       into, block.requested, start);
  return fmt::format("byte {} of a {}-byte block from device malloc (at 0x{:x}), past its end", into, block.requested,
                     start);
}

void DeviceHeap::reset() {
  std::lock_guard lock(mutex_);
  base_ = 0;
  limit_ = kDefaultLimit;
  free_.clear();
  blocks_.clear();
  if (g_running == this) g_running = nullptr;
}

}  // namespace simt
