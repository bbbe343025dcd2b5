#include "sim/count/dram_estimate.hpp"

#include "sim/memory/global_memory.hpp"

#include <atomic>

namespace simt {

namespace {

GlobalMemory& memory() {  // looked up once: the accessor's guard check showed in profiles
  static GlobalMemory* const m = &GlobalMemory::instance();
  return *m;
}

void mark_touched(std::uintptr_t sector) {
  const std::uintptr_t index = (sector - memory().base()) >> 5;
  std::atomic_ref<std::uint64_t>(memory().touched_bits()[index >> 6]).fetch_or(std::uint64_t(1) << (index & 63),
                                                                                std::memory_order_relaxed);
}

}  // namespace

// DRAM estimate: a sector costs DRAM traffic the first time a launch reads it
// (unless written first) and once if the launch writes it.
std::uint32_t account_dram_sector(Counters& totals, std::uint32_t serial, std::uintptr_t sector, MemOp op) {
  std::atomic_ref<std::uint32_t> shadow(*memory().sector_shadow(sector));
  const std::uint32_t want = op == MemOp::Load ? 1u : op == MemOp::Store ? 2u : 3u;
  std::uint32_t old = shadow.load(std::memory_order_relaxed);
  for (;;) {
    std::uint32_t flags = (old >> 2) == serial ? (old & 3u) : 0u;
    if ((flags & want) == want || (want == 1u && (flags & 2u))) return 0;
    std::uint32_t now = (serial << 2) | flags | want;
    if (shadow.compare_exchange_weak(old, now, std::memory_order_relaxed)) {
      if (!flags) mark_touched(sector);  // the launch's first touch of this sector
      const std::uint32_t read = (want & 1u) && !(flags & 3u) ? 32 : 0;
      const std::uint32_t written = (want & 2u) && !(flags & 2u) ? 32 : 0;
      if (memory().host_page(sector)) {  // zero-copy: the bytes cross the host link
        totals[Counter::SysmemReadBytes] += read;
        totals[Counter::SysmemWriteBytes] += written;
        return 0;
      }
      totals[Counter::DramReadBytes] += read;
      totals[Counter::DramWriteBytes] += written;
      return read;
    }
  }
}

std::uint32_t account_dram(Counters& totals, std::uint32_t serial, std::uintptr_t addr, unsigned size, MemOp op) {
  std::uint32_t read = 0;
  for (std::uintptr_t s = addr & ~std::uintptr_t(31); s < addr + size; s += 32)
    read += account_dram_sector(totals, serial, s, op);
  return read;
}

}  // namespace simt
