// L1's clocks for one instruction's lines (sim/count/l1_rule.hpp), on the patterns the
// H100 timed (tests/cuda/l1_row_walk_probe.cu, docs/validation/h200-short-kernels.md).
#include "sim/count/l1_rule.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

using namespace simt;

namespace {

// The distinct sectors, sorted, of 32 lanes each reading 4 bytes at lane x stride.
std::uint32_t cycles_at_stride(std::uint64_t stride_bytes) {
  std::vector<std::uint64_t> sectors;
  for (std::uint64_t lane = 0; lane < 32; ++lane) sectors.push_back((1u << 20) + lane * stride_bytes >> 5);
  std::sort(sectors.begin(), sectors.end());
  sectors.erase(std::unique(sectors.begin(), sectors.end()), sectors.end());
  return l1_data_cycles(sectors.data(), static_cast<std::uint32_t>(sectors.size()));
}

}  // namespace

TEST_CASE("L1 serves a line a clock, two where their sectors sit at different places") {
  CHECK(cycles_at_stride(4) == 1);      // coalesced 4-byte lanes: one full line
  CHECK(cycles_at_stride(16) == 4);     // float4 lanes: 4 full lines
  CHECK(cycles_at_stride(32) == 8);     // 8 lines, each with four lanes' sectors: measured 9.3
  CHECK(cycles_at_stride(64) == 16);    // 16 lines of two sectors at places 0 and 2: 16.3
  CHECK(cycles_at_stride(4096) == 32);  // rows 4 KiB apart: 32 lines at one place: 32.3
  CHECK(cycles_at_stride(4224) == 32);  // 33 lines apart, still one place: 32.6
  CHECK(cycles_at_stride(4160) == 16);  // two places: measured 22
  CHECK(cycles_at_stride(4000) == 16);  // four places (the naive softmax's rows): 20.5
  CHECK(cycles_at_stride(192) == 16);   // 32 lines, places 0 and 2 alternating: 17
  CHECK(l1_data_cycles(nullptr, 0) == 0);
}
