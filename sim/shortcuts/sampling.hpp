// Sampled launches: a launch whose exact run would take longer than a budget counts
// a sample of its blocks and runs the others uncounted, through each kernel's plain
// twin (the compiler pass's copy without counting, sim/compiler/pass/plain_twin.cpp).
// Output stays exact; counters are estimated (docs/exec.md, "Sampled launches").
//
// How: the middle block of every window of s blocks is counted first (s a power of 3,
// one to three blocks per worker), then the middles of windows a third as wide while
// the first second lasts, or the sample has taken less than a tenth of the budget, or
// its blocks' spread puts its estimate more than 1% off and it has taken less than
// half the budget (sample_spread.hpp). From the time the counted blocks took, the whole
// launch's exact time is projected: within the budget (the sample_budget option's seconds, 60
// by default) the other blocks are counted too; beyond it they run uncounted, and the
// counters are the sample's scaled by blocks / counted blocks, but for the DRAM
// estimate, to which every block contributes its sectors.
#pragma once
#include "sim/count/counters.hpp"
#include "sim/exec/plain_twin.hpp"
#include "sim/shortcuts/launch_footprint.hpp"

#include <cstdint>

namespace simt {

struct LaunchContext;
struct LaunchRecord;

// Off with exact=1 (`simt exec --exact`) and under `simt validate`.
bool sampling_enabled();
double sample_budget_seconds();

// Runs the launch's blocks on n workers, sampled when it qualifies, and leaves the
// counters in rec (totals, per_site, counted_blocks).
void run_blocks(LaunchContext& launch, unsigned n, LaunchRecord& rec);

// A sampled launch's footprint is its counted blocks': widened to whole allocations,
// on the assumption that every block touches the same arrays (a read of an array it
// also writes counts as reading what it writes).
void widen_to_allocations(LaunchFootprint& fp);

}  // namespace simt
