// Transpose variants: odd shapes, and global sectors and shared bank conflicts
// for 1024 x 1024, derived by hand. 2^20 elements = 32768 warp-level accesses
// per pass over the data (32 lanes each, every lane active).
#include "run_kernel.hpp"

using simt::Counter;

namespace {
constexpr std::uint64_t kWarpAccesses = (1024 * 1024) / 32;
}

TEST_CASE("transpose variants: shapes that are not multiples of the tile") {
  for (const char* name : {"transpose_naive", "transpose_shared", "transpose_padded"}) {
    INFO(name);
    require_clean_pass(run_kernel(name, {{"rows", "100"}, {"cols", "37"}}));
    require_clean_pass(run_kernel(name, {{"rows", "1"}, {"cols", "1000"}}));
    require_clean_pass(run_kernel(name, {{"rows", "65"}, {"cols", "1"}}));
  }
}

TEST_CASE("transpose_naive: loads are 4 sectors per request, stores 32") {
  const KernelRun& r = run_defaults("transpose_naive");
  require_clean_pass(r);
  CHECK(r.total(Counter::GlobalLdRequests) == kWarpAccesses);
  CHECK(r.total(Counter::GlobalLdSectors) == 4 * kWarpAccesses);
  CHECK(r.total(Counter::GlobalStRequests) == kWarpAccesses);
  CHECK(r.total(Counter::GlobalStSectors) == 32 * kWarpAccesses);  // 32 output rows per warp store
}

TEST_CASE("transpose through shared memory: coalesced both ways; padding removes the 31 extra wavefronts") {
  const KernelRun& plain = run_defaults("transpose_shared");
  const KernelRun& padded = run_defaults("transpose_padded");
  require_clean_pass(plain);
  require_clean_pass(padded);
  for (const KernelRun* r : {&plain, &padded}) {
    CHECK(r->total(Counter::GlobalLdSectors) == 4 * kWarpAccesses);
    CHECK(r->total(Counter::GlobalStSectors) == 4 * kWarpAccesses);
    // Row writes into the tile: 32 consecutive words (padded: still consecutive).
    CHECK(r->total(Counter::SharedStInst) == kWarpAccesses);
    CHECK(r->total(Counter::SharedStWavefronts) == kWarpAccesses);
    CHECK(r->total(Counter::SharedStConflicts) == 0);
    CHECK(r->total(Counter::SharedLdInst) == kWarpAccesses);
  }
  // Unpadded column read: 32 words in one bank -> 32 wavefronts, 31 of them
  // conflicts, for each of the 32768 warp reads: 1,015,808 conflicts.
  CHECK(plain.total(Counter::SharedLdWavefronts) == 32 * kWarpAccesses);
  CHECK(plain.total(Counter::SharedLdConflicts) == 31 * kWarpAccesses);
  CHECK(plain.total(Counter::SharedLdConflicts) == 1015808);
  // Padded: banks (tx + c) mod 32 are all different -> 1 wavefront.
  CHECK(padded.total(Counter::SharedLdWavefronts) == kWarpAccesses);
  CHECK(padded.total(Counter::SharedLdConflicts) == 0);
}
