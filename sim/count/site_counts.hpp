// Per-thread, per-site operation counts: a small direct-mapped table, because a
// kernel's inner loop touches only a handful of sites. add() is inlined into
// kernel code; only a first visit or a collision leaves it.
#pragma once
#include "sim/memory/events.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace simt {

// Entry kinds at or above kBlockKind are basic-block groups of the compiler front
// end: kind - kBlockKind quarters of a SASS instruction per execution
// (docs/counters.md, "Instructions"). Below: FpOp values, and 255 for warp collectives.
inline constexpr std::uint32_t kBlockKind = 256;

class SiteCounts {
 public:
  struct Entry {
    Site site = nullptr;
    std::uint32_t kind = 0;  // FpOp, 255 for collectives, or kBlockKind + instructions
    std::uint64_t count = 0;
  };
  void add(Site site, std::uint32_t kind) {
    Entry& e = slots_[slot_of(site)];
    if (e.site == site) ++e.count;
    else add_new(site, kind);
  }
  template <class F> void for_each(F&& f) const {
    for (std::uint8_t i : used_) f(slots_[i]);
    for (const Entry& e : overflow_) f(e);
  }
  // Cheap when few sites were used, which is the common case: only those are reset.
  void clear() {
    for (std::uint8_t i : used_) slots_[i] = Entry{};
    used_.clear();
    overflow_.clear();
  }

 private:
  static constexpr std::size_t kSlots = 64;
  static std::size_t slot_of(Site site) { return (reinterpret_cast<std::uintptr_t>(site) >> 2) & (kSlots - 1); }
  __attribute__((noinline)) void add_new(Site site, std::uint32_t kind);

  std::array<Entry, kSlots> slots_{};
  std::vector<std::uint8_t> used_;
  std::vector<Entry> overflow_;
};

}  // namespace simt
