// What the bank rules make of one warp instruction on shared memory, worked out
// once per access pattern. The answer depends only on where the lanes' addresses
// lie relative to each other: shifting every address by a multiple of 4 bytes
// shifts every bank alike. A tiled loop repeats the same few patterns at every
// step of every block, so a small cache keyed by site answers almost every row.
#pragma once
#include "sim/count/warp_grouping.hpp"

#include <array>
#include <cstdint>

namespace simt {

struct SharedPattern {
  SharedCost cost;
  bool one_wavefront = false;   // 4-byte or narrower accesses, no bank serves two words
  // When one_wavefront: the distinct words, relative to the first active lane's
  // word, and the lanes that access each.
  std::uint32_t words = 0;
  std::int64_t word_offset[32];
  std::uint32_t lanes[32];
};

class SharedPatternCache {
 public:
  // row: a shared load or store.
  const SharedPattern& analyse(const WarpAccess& row);

 private:
  struct Slot {
    Site site = nullptr;
    std::uint32_t active = 0, size = 0;
    std::uint64_t first_in_word = 0;  // the first active lane's address mod 4
    std::int64_t offset[32] = {};     // each lane's address minus the first's (0 when inactive)
    SharedPattern pattern;
  };
  std::array<Slot, 16> slots_{};
};

}  // namespace simt
