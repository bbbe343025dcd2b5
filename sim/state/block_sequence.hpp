// Which blocks of a grid a part of a launch runs, as a sequence workers take in turn:
// every block, or (for a sampled launch, sim/shortcuts/sampling.hpp) the blocks in the
// middle of each window of s, or those that are not.
#pragma once
#include <cstdint>

namespace simt {

struct BlockSequence {
  enum class Kind : std::uint8_t { All, Middles, NewMiddles, NotMiddles };
  Kind kind = Kind::All;
  std::uint64_t stride = 1;  // s, a power of 3: middles of windows of s are middles of windows of s/3 too
  std::uint64_t count = 0;   // blocks in the sequence

  std::uint64_t middle() const { return (stride - 1) / 2; }
  // The k-th block of the sequence.
  std::uint64_t block(std::uint64_t k) const {
    switch (kind) {
      case Kind::All: return k;
      case Kind::Middles: return middle() + k * stride;
      // Middles of windows of s that were not middles of windows of 3s: every window
      // position j but the one in the middle of three (j % 3 == 1).
      case Kind::NewMiddles: return middle() + (k + (k + 1) / 2) * stride;
      case Kind::NotMiddles: return k < middle() ? k : k + (k - middle() + stride - 1) / (stride - 1);
    }
    return k;
  }
};

// Blocks of a grid of n that are middles of windows of s.
inline std::uint64_t middles(std::uint64_t n, std::uint64_t s) { return n > (s - 1) / 2 ? (n - 1 - (s - 1) / 2) / s + 1 : 0; }

}  // namespace simt
