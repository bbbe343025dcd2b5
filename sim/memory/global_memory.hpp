// Simulated device (global) memory: one large reserved address range, carved by
// cudaMalloc. Keeping every device byte inside one range makes "is this a
// device access?" a single comparison, and lets shadow memory sit beside it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace simt {

struct Allocation {
  std::uintptr_t base = 0;
  std::size_t size = 0;
  std::uint64_t id = 0;   // 1, 2, ... in allocation order
  bool live = true;
  std::string describe() const;  // "allocation #3 (4096 bytes at 0x...)"
};

class GlobalMemory {
 public:
  static GlobalMemory& instance();

  void* allocate(std::size_t bytes);  // null when the arena is exhausted
  bool release(void* p);              // false if p is not a live allocation base
  // The live allocation containing [addr, addr+size), or null.
  const Allocation* find(std::uintptr_t addr, std::size_t size) const;
  // The allocation nearest to addr (live or freed), for diagnostics.
  const Allocation* nearest(std::uintptr_t addr) const;
  bool contains(std::uintptr_t addr) const { return addr - base_ < size_; }
  // Base and size of every live allocation, in address order.
  std::vector<std::pair<std::uintptr_t, std::size_t>> live_ranges() const;
  std::uintptr_t base() const { return base_; }
  std::size_t arena_bytes() const { return size_; }
  std::size_t bytes_in_use() const { return in_use_; }
  // Every live allocation, in allocation order (a copy: safe while others allocate).
  std::vector<Allocation> live_allocations() const;

  // Shadow words beside each 4-byte word (race detection) and each 32-byte sector
  // (DRAM traffic estimate); both reserved lazily, zero until touched.
  std::uint64_t* race_shadow(std::uintptr_t addr) const {
    return race_shadow_ + ((addr - base_) >> 2) * 2;
  }
  // Per 4 KiB page of the arena: how many bytes from the page's start lie inside
  // a live allocation (allocations start on a page). Lets the inlined access path
  // settle global bounds with one lookup; only faults take the full path.
  const std::uint16_t* page_bytes() const { return page_bytes_; }
  static constexpr unsigned kPageShift = 12;

  std::uint32_t* sector_shadow(std::uintptr_t addr) const {
    return sector_shadow_ + ((addr - base_) >> 5);
  }

 private:
  GlobalMemory();
  std::uintptr_t base_ = 0;
  std::size_t size_ = 0;
  std::uintptr_t next_ = 0;
  std::size_t in_use_ = 0;
  std::uint64_t* race_shadow_ = nullptr;
  std::uint32_t* sector_shadow_ = nullptr;
  std::uint16_t* page_bytes_ = nullptr;
  void mark_pages(std::uintptr_t base, std::size_t bytes, bool live);
  std::vector<Allocation> allocations_;  // sorted by base (bump allocation)
  mutable std::mutex mutex_;
};

}  // namespace simt
