#include "sim/shortcuts/memory_snapshot.hpp"

#include "sim/memory/global_memory.hpp"

#include <algorithm>
#include <cstring>

namespace simt {

MemorySnapshot MemorySnapshot::take() {
  const GlobalMemory& gm = GlobalMemory::instance();
  MemorySnapshot s;
  for (auto [base, size] : gm.live_ranges()) {  // address order
    const auto* from = reinterpret_cast<const unsigned char*>(gm.host_address(base));
    s.pieces_.push_back({base, std::vector<unsigned char>(from, from + size)});
    s.bytes_ += size;
  }
  return s;
}

void MemorySnapshot::restore(const SectorRuns& sectors) const {
  const GlobalMemory& gm = GlobalMemory::instance();
  auto piece = pieces_.begin();
  for (const SectorRun& run : sectors) {
    const std::uintptr_t lo = run.begin * 32, hi = run.end * 32;
    // Allocations are in address order, and so are the runs.
    while (piece != pieces_.end() && piece->base + piece->bytes.size() <= lo) ++piece;
    for (auto p = piece; p != pieces_.end() && p->base < hi; ++p) {
      const std::uintptr_t from = std::max(lo, p->base), to = std::min<std::uintptr_t>(hi, p->base + p->bytes.size());
      if (from < to)
        std::memcpy(reinterpret_cast<void*>(gm.host_address(from)), p->bytes.data() + (from - p->base), to - from);
    }
  }
}

void MemorySnapshot::restore_all() const {
  const GlobalMemory& gm = GlobalMemory::instance();
  for (const Piece& p : pieces_) std::memcpy(reinterpret_cast<void*>(gm.host_address(p.base)), p.bytes.data(), p.bytes.size());
}

}  // namespace simt
