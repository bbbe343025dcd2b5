// The error a sampled launch reports (sim/shortcuts/sample_spread.hpp): from the counted
// blocks' successive differences, small for a smooth ramp of work (which systematic
// middles estimate well), about the plain standard error for blocks that differ at
// random, and an honest bound on the error actually made.
#include "sim/state/block_sequence.hpp"
#include "sim/shortcuts/sample_spread.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

using namespace simt;

namespace {

// The middles of windows of s over a grid whose block b did work[b] (every measure alike).
std::vector<BlockWork> sample(const std::vector<double>& work, std::uint64_t s) {
  const BlockSequence seq{BlockSequence::Kind::Middles, s, middles(work.size(), s)};
  std::vector<BlockWork> out;
  for (std::uint64_t k = 0; k < seq.count; ++k) {
    const std::uint64_t b = seq.block(k);
    out.push_back({b, {work[b], work[b], work[b]}});
  }
  return out;
}

// |scaled sample - exact| / exact.
double actual_error(const std::vector<double>& work, const std::vector<BlockWork>& s) {
  double exact = 0, sampled = 0;
  for (double w : work) exact += w;
  for (const BlockWork& b : s) sampled += b.measures[0];
  return std::abs(sampled * double(work.size()) / double(s.size()) - exact) / exact;
}

}  // namespace

TEST_CASE("one counted block gives no estimate; every block counted gives none to make") {
  std::vector<BlockWork> one{{5, {1, 1, 1}}};
  CHECK(relative_error(one, 100) >= 1e300);
  std::vector<BlockWork> all{{0, {1, 2, 3}}, {1, {4, 5, 6}}};
  CHECK(relative_error(all, 2) == 0);
}

TEST_CASE("a ramp of work (causal attention's rows): small estimated error, smaller actual error") {
  std::vector<double> work(2187);
  for (std::size_t b = 0; b < work.size(); ++b) work[b] = 1000.0 + 10.0 * double(b);
  for (std::uint64_t s : {729, 243, 81, 27}) {
    std::vector<BlockWork> counted = sample(work, s);
    const double estimated = relative_error(counted, work.size()), actual = actual_error(work, counted);
    INFO("s " << s << ": estimated " << estimated << ", actual " << actual);
    CHECK(actual <= estimated);
    // The plain variance would say sqrt(k / 6) times more (a uniform ramp's CV is
    // about 0.53 here): the successive differences shrink with the window.
    const double k = double(counted.size()), plain = 0.53 / std::sqrt(k);
    CHECK(estimated < 3.0 / k * plain);
  }
}

TEST_CASE("blocks that differ at random: about the plain standard error, and it bounds the error made") {
  std::mt19937_64 rng(7);
  std::lognormal_distribution<double> heavy_tailed(0.0, 0.8);
  std::vector<double> work(6561);
  for (double& w : work) w = 1e6 * heavy_tailed(rng);
  double mean = 0, squares = 0;
  for (double w : work) mean += w / double(work.size());
  for (double w : work) squares += (w - mean) * (w - mean);
  const double sd = std::sqrt(squares / double(work.size() - 1));
  for (std::uint64_t s : {243, 81, 27, 9}) {
    std::vector<BlockWork> counted = sample(work, s);
    const double k = double(counted.size()), n = double(work.size());
    const double plain = sd / mean * std::sqrt((1 - k / n) / k);
    const double estimated = relative_error(counted, work.size()), actual = actual_error(work, counted);
    INFO("s " << s << ": estimated " << estimated << ", plain " << plain << ", actual " << actual);
    CHECK(estimated > 0.6 * plain);
    CHECK(estimated < 1.6 * plain);
    CHECK(actual < 3 * estimated);
  }
}

TEST_CASE("the largest error of the three measures is the one reported") {
  std::vector<BlockWork> counted;
  for (std::uint64_t b = 0; b < 30; ++b)  // instructions alike, FP operations alternating
    counted.push_back({b * 10 + 5, {100, b % 2 ? 10.0 : 30.0, 50}});
  const double e = relative_error(counted, 300);
  CHECK(e > 0.05);
  for (BlockWork& w : counted) w.measures[1] = 20;
  CHECK(relative_error(counted, 300) == 0);
}
