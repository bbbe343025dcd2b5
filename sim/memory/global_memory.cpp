#include "sim/memory/global_memory.hpp"

#include <fmt/format.h>
#include <sys/mman.h>

#include <algorithm>
#include <stdexcept>

namespace simt {

namespace {
constexpr std::size_t kArenaBytes = 64ull << 30;  // address space only, reserved lazily
constexpr std::size_t kAlignment = 256;           // cudaMalloc's alignment
constexpr std::size_t kGuardBytes = 4096;         // unmapped gap between allocations

void* reserve(std::size_t bytes, int prot) {
  void* p = mmap(nullptr, bytes, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::runtime_error("simtlab: cannot reserve simulated device memory");
  return p;
}
std::size_t round_up(std::size_t n, std::size_t a) { return (n + a - 1) / a * a; }
}  // namespace

std::string Allocation::describe() const {
  return fmt::format("allocation #{} ({} bytes at 0x{:x}{})", id, size, base, live ? "" : ", freed");
}

GlobalMemory& GlobalMemory::instance() {
  static GlobalMemory memory;
  return memory;
}

GlobalMemory::GlobalMemory() {
  size_ = kArenaBytes;
  base_ = reinterpret_cast<std::uintptr_t>(reserve(size_, PROT_NONE));
  next_ = base_ + kGuardBytes;
  race_shadow_ = static_cast<std::uint64_t*>(reserve(size_ / 4 * 16, PROT_READ | PROT_WRITE));
  sector_shadow_ = static_cast<std::uint32_t*>(reserve(size_ / 32 * 4, PROT_READ | PROT_WRITE));
  page_bytes_ = static_cast<std::uint16_t*>(reserve((size_ >> kPageShift) * 2, PROT_READ | PROT_WRITE));
}

void GlobalMemory::mark_pages(std::uintptr_t base, std::size_t bytes, bool live) {
  constexpr std::size_t kPage = std::size_t(1) << kPageShift;
  std::uint16_t* page = page_bytes_ + ((base - base_) >> kPageShift);  // base is page-aligned
  for (std::size_t done = 0; done < bytes; done += kPage)
    *page++ = live ? static_cast<std::uint16_t>(std::min(kPage, bytes - done)) : 0;
}

void* GlobalMemory::allocate(std::size_t bytes) {
  std::lock_guard lock(mutex_);
  std::size_t span = round_up(std::max<std::size_t>(bytes, 1), 4096);
  if (next_ + span + kGuardBytes > base_ + size_) return nullptr;
  std::uintptr_t p = next_;
  if (mprotect(reinterpret_cast<void*>(p), span, PROT_READ | PROT_WRITE) != 0) return nullptr;
  next_ = round_up(p + span + kGuardBytes, kAlignment);
  allocations_.push_back({p, bytes, allocations_.size() + 1, true});
  mark_pages(p, bytes, true);
  in_use_ += bytes;
  return reinterpret_cast<void*>(p);
}

bool GlobalMemory::release(void* ptr) {
  std::lock_guard lock(mutex_);
  auto p = reinterpret_cast<std::uintptr_t>(ptr);
  auto it = std::lower_bound(allocations_.begin(), allocations_.end(), p,
                             [](const Allocation& a, std::uintptr_t v) { return a.base < v; });
  if (it == allocations_.end() || it->base != p || !it->live) return false;
  it->live = false;
  mark_pages(it->base, it->size, false);
  in_use_ -= it->size;
  // Addresses are never reused, so a use after free is always caught.
  std::size_t span = round_up(std::max<std::size_t>(it->size, 1), 4096);
  madvise(ptr, span, MADV_DONTNEED);
  mprotect(ptr, span, PROT_NONE);
  return true;
}

std::vector<std::pair<std::uintptr_t, std::size_t>> GlobalMemory::live_ranges() const {
  std::lock_guard lock(mutex_);
  std::vector<std::pair<std::uintptr_t, std::size_t>> out;
  for (const Allocation& a : allocations_)
    if (a.live) out.emplace_back(a.base, a.size);
  return out;
}

const Allocation* GlobalMemory::find(std::uintptr_t addr, std::size_t size) const {
  const Allocation* a = nearest(addr);
  if (a && a->live && addr >= a->base && addr + size <= a->base + a->size) return a;
  return nullptr;
}

const Allocation* GlobalMemory::nearest(std::uintptr_t addr) const {
  if (allocations_.empty()) return nullptr;
  auto it = std::upper_bound(allocations_.begin(), allocations_.end(), addr,
                             [](std::uintptr_t v, const Allocation& a) { return v < a.base; });
  if (it == allocations_.begin()) return &*it;
  const Allocation& before = *std::prev(it);
  if (addr < before.base + before.size) return &before;
  if (it == allocations_.end() || addr - (before.base + before.size) < it->base - addr) return &before;
  return &*it;
}

std::vector<Allocation> GlobalMemory::live_allocations() const {
  std::lock_guard lock(mutex_);
  std::vector<Allocation> live;
  for (const Allocation& a : allocations_)
    if (a.live) live.push_back(a);
  return live;  // allocations_ is sorted by base, and bases grow with ids
}

}  // namespace simt
