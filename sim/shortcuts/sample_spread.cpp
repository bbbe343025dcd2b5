#include "sim/shortcuts/sample_spread.hpp"

#include <algorithm>
#include <cmath>

namespace simt {

double relative_error(std::vector<BlockWork>& sample, std::uint64_t grid_blocks) {
  const double k = double(sample.size()), n = double(grid_blocks);
  if (sample.size() >= grid_blocks) return 0;
  if (sample.size() < 2) return 1e300;
  std::sort(sample.begin(), sample.end(), [](const BlockWork& a, const BlockWork& b) { return a.block < b.block; });
  double worst = 0;
  for (std::size_t m = 0; m < BlockWork{}.measures.size(); ++m) {
    double sum = 0, squares = 0;
    for (std::size_t i = 0; i < sample.size(); ++i) {
      sum += sample[i].measures[m];
      if (i) squares += std::pow(sample[i].measures[m] - sample[i - 1].measures[m], 2);
    }
    const double mean = sum / k;
    if (mean <= 0) continue;
    const double variance_of_mean = (1 - k / n) / k * squares / (2 * (k - 1));
    worst = std::max(worst, std::sqrt(variance_of_mean) / mean);
  }
  return worst;
}

}  // namespace simt
