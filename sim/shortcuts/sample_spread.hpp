// How far a sampled launch's scaled counters may be from the exact ones, judged from
// the spread of what its counted blocks did (sim/shortcuts/sampling.cpp).
//
// The counted blocks are a systematic sample (the middle of every window of s), so the
// error is estimated from successive differences along the grid, not from the plain
// variance: a ramp of work (a causal attention's rows) moves the mean of a systematic
// sample little and the plain variance a lot, while blocks that differ at random count
// in both alike. With y_i the counted blocks' values in grid order, k of them among N:
//     Var(mean) ~ (1 - k/N) / k * sum (y_{i+1} - y_i)^2 / (2 (k - 1))
// (Wolter, "Introduction to Variance Estimation", the successive-difference estimator).
#pragma once
#include "sim/exec/block_work.hpp"

#include <cstdint>
#include <vector>

namespace simt {

// The largest estimated relative standard error of the grid's total, over the
// measures that are not zero: 1e300 with fewer than two blocks, 0 when every block
// was counted. Sorts `sample` by block.
double relative_error(std::vector<BlockWork>& sample, std::uint64_t grid_blocks);

}  // namespace simt
