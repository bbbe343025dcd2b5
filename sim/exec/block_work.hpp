// What one block did, by a few measures, filed by the worker that ran it when the
// launch asks (a sampled launch judges its sample by them, sim/shortcuts/sample_spread.hpp).
#pragma once
#include "sim/count/counters.hpp"

#include <array>
#include <cstdint>

namespace simt {

// What one counted block did, by the measures the error is judged on.
struct BlockWork {
  std::uint64_t block = 0;  // its linear index in the grid
  std::array<double, 3> measures{};
};

// A block's measures from the counters before and after it: estimated instructions,
// floating-point operations, memory instructions (global requests and shared).
BlockWork block_work(std::uint64_t block, const Counters& before, const Counters& after);

}  // namespace simt
