// Per-site operation counts of one warp, lane by lane: a small direct-mapped table,
// because a kernel's inner loop touches only a handful of sites. add() is inlined
// into kernel code; only a warp's first visit to a site or a collision leaves it.
// One table per warp rather than per thread: a site is filed once per warp, and
// the block's end sums and takes the busiest lane per site in one pass over 32
// counts (short kernels, one pass per thread, spent most of their counting there).
#pragma once
#include "sim/types/events.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace simt {

// Entry kinds at or above kBlockKind are basic-block groups of the compiler front
// end: kind - kBlockKind quarters of a SASS instruction per execution
// (docs/counters.md, "Instructions"). Below: FpOp values, and 255 for warp collectives.
inline constexpr std::uint32_t kBlockKind = 256;

class WarpSiteCounts {
 public:
  struct Entry {
    Site site = nullptr;
    std::uint32_t kind = 0;  // FpOp, 255 for collectives, or kBlockKind + instructions
    std::array<std::uint64_t, 32> count{};  // per lane
  };
  void add(Site site, std::uint32_t kind, unsigned lane) {
    Entry& e = slots_[slot_of(site)];
    if (e.site == site) ++e.count[lane];
    else add_new(site, kind, lane);
  }
  template <class F> void for_each(F&& f) const {
    for (unsigned i = 0; i < used_count_; ++i) f(slots_[used_[i]]);
    for (const Entry& e : overflow_) f(e);
  }
  // Cheap when few sites were used, which is the common case: only those are reset.
  void clear() {
    for (unsigned i = 0; i < used_count_; ++i) slots_[used_[i]] = Entry{};
    used_count_ = 0;
    overflow_.clear();
  }

 private:
  static constexpr std::size_t kSlots = 64;
  static std::size_t slot_of(Site site) { return (reinterpret_cast<std::uintptr_t>(site) >> 2) & (kSlots - 1); }
  __attribute__((noinline)) void add_new(Site site, std::uint32_t kind, unsigned lane);

  std::array<Entry, kSlots> slots_{};
  std::array<std::uint8_t, kSlots> used_{};
  unsigned used_count_ = 0;
  std::vector<Entry> overflow_;
};

// One thread's view: its warp's table and its lane.
class SiteCounts {
 public:
  void bind(WarpSiteCounts* warp, unsigned lane) {
    warp_ = warp;
    lane_ = lane;
  }
  void add(Site site, std::uint32_t kind) { warp_->add(site, kind, lane_); }

 private:
  WarpSiteCounts* warp_ = nullptr;
  unsigned lane_ = 0;
};

}  // namespace simt
