// A library GEMM as a launch the repeat rule can skip (sim/shortcuts/repeat_launch.hpp):
// its key (every argument) and its footprint (the byte spans of its matrices). A
// benchmark repeating the same product on the same buffers computes it once.
#pragma once
#include "sim/shortcuts/launch_footprint.hpp"
#include "sim/shortcuts/repeat_launch.hpp"
#include "sim/libs/gemm.hpp"

namespace simt::libs {

LaunchKey gemm_key(const GemmCall& g);
// Reads A, B, C (when beta is not 0) and the bias; writes D. Read-then-written when
// C is D (an accumulating product) or an input overlaps D.
LaunchFootprint gemm_footprint(const GemmCall& g);

}  // namespace simt::libs
