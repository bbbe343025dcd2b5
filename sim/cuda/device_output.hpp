// Device printf: how many times device code wrote to stdout. A launch that
// printed is never skipped as a repeat (sim/exec/repeat_launch.hpp): its output
// is part of what it does.
#pragma once
#include <cstdint>

namespace simt {

// Calls of printf, vprintf, puts and putchar made by simulated threads so far.
std::uint64_t device_output_calls();

}  // namespace simt
