// L1's clocks for one warp instruction's global lines (simt__l1_data_cycles.sum): a
// line a clock whatever its sectors, or two lines a clock where their sectors sit at
// different places in the line (a sector is a quarter of the line's 32 banks). Measured
// on an H100 by tests/cuda/l1_row_walk_probe.cu (docs/validation/h200-short-kernels.md):
// 32 lines of one sector at one place take 32 clocks a request, at two or four places
// 17 to 22; 16 lines of two sectors at places 0 and 2 take 16, 8 full lines 9.
#pragma once
#include <cstdint>

namespace simt {

// `sectors`: the instruction's distinct sectors (address / 32), sorted. The larger of
// half its lines and the lines that want any one place.
std::uint32_t l1_data_cycles(const std::uint64_t* sectors, std::uint32_t n);

}  // namespace simt
