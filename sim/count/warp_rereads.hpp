// Sectors a warp's global load shares with the same warp's previous load at the same
// site: a thread walking its own row (softmax_online, the naive softmax and LayerNorm
// backward, a serial scan over a small array) reads each 32-byte sector for several
// iterations in a row, and on the GPU every read after the first hits in L1 (87% L1
// hits for softmax_backward_naive_dot: 7 of each 8 four-byte steps). The kernel time
// model prices those rounds at L1's latency, not L2's (docs/counters.md, "Warp
// re-reads").
#pragma once
#include "sim/types/events.hpp"

#include <array>
#include <cstdint>

namespace simt {

class WarpRereads {
 public:
  // A new block: no warp has loaded anything.
  void reset();
  // Warp `warp`'s load at `site` touched `n` sectors (sorted, distinct): how many of them
  // its previous load at the same site touched too. Remembers these for the next.
  std::uint32_t note(unsigned warp, Site site, const std::uint64_t* sectors, std::uint32_t n);

 private:
  static constexpr unsigned kSlots = 8;       // sites remembered per warp, by the site's address
  static constexpr unsigned kKept = 32;       // sectors kept of a load (a warp's lanes: one each)
  struct Last {
    Site site = nullptr;
    std::uint32_t n = 0;
    std::array<std::uint64_t, kKept> sectors{};
  };
  std::array<std::array<Last, kSlots>, 32> last_{};
};

}  // namespace simt
