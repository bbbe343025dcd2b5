// The parts of a sampled launch (sim/state/block_sequence.hpp): the counted middles and
// the rest cover every block of the grid exactly once, and each refinement adds the
// middles of windows a third as wide without repeating the earlier ones.
#include "sim/state/block_sequence.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

using namespace simt;
using Kind = BlockSequence::Kind;

namespace {

std::vector<int> visits(std::uint64_t n, const std::vector<BlockSequence>& parts) {
  std::vector<int> seen(n, 0);
  for (const BlockSequence& p : parts)
    for (std::uint64_t k = 0; k < p.count; ++k) {
      const std::uint64_t b = p.block(k);
      REQUIRE(b < n);
      ++seen[b];
    }
  return seen;
}

}  // namespace

TEST_CASE("middles and the rest cover every block once, for any grid and window") {
  for (std::uint64_t n : {1, 2, 5, 26, 27, 28, 100, 729, 1000, 3073}) {
    for (std::uint64_t s = 1; s <= 729; s *= 3) {
      INFO("n " << n << " s " << s);
      const std::uint64_t m = middles(n, s);
      const std::vector<int> seen = visits(n, {{Kind::Middles, s, m}, {Kind::NotMiddles, s, n - m}});
      CHECK(std::count(seen.begin(), seen.end(), 1) == std::ptrdiff_t(n));
      for (std::uint64_t k = 0; k < m; ++k) CHECK(BlockSequence{Kind::Middles, s, m}.block(k) % s == (s - 1) / 2);
    }
  }
}

TEST_CASE("refining to windows a third as wide adds exactly the new middles") {
  for (std::uint64_t n : {10, 81, 82, 500, 2187, 5000}) {
    for (std::uint64_t s = 3; s <= 2187; s *= 3) {
      INFO("n " << n << " s " << s);
      const std::uint64_t wide = middles(n, s), narrow = middles(n, s / 3);
      const std::vector<int> seen =
          visits(n, {{Kind::Middles, s, wide}, {Kind::NewMiddles, s / 3, narrow - wide}});
      const std::vector<int> want = visits(n, {{Kind::Middles, s / 3, narrow}});
      CHECK(seen == want);
    }
  }
}

TEST_CASE("the middles of a linear ramp average to its mean: no bias towards the grid's start") {
  const std::uint64_t n = 729, s = 27;
  const std::uint64_t m = middles(n, s);
  double sum = 0;
  for (std::uint64_t k = 0; k < m; ++k) sum += double(BlockSequence{Kind::Middles, s, m}.block(k));
  CHECK(sum / double(m) == doctest::Approx((n - 1) / 2.0));
}
