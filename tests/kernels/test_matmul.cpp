// Batched matmul variants: odd shapes, and the traffic each thread mapping
// causes, derived by hand for m = n = k = 256, batch 1 (65536 outputs = 2048 warps).
#include "run_kernel.hpp"

using simt::Counter;

namespace {
constexpr std::uint64_t kWarps = 256 * 256 / 32, kK = 256;
}

TEST_CASE("matmul variants: shapes that are not multiples of the block or tile") {
  for (const char* name : {"matmul_naive", "matmul_coalesced", "matmul_tiled"}) {
    INFO(name);
    require_clean_pass(run_kernel(name, {{"batch", "3"}, {"m", "37"}, {"n", "50"}, {"k", "29"}}));
    require_clean_pass(run_kernel(name, {{"batch", "1"}, {"m", "1"}, {"n", "70"}, {"k", "65"}}));
  }
  require_clean_pass(run_kernel("matmul_tiled", {{"batch", "2"}, {"m", "40"}, {"n", "33"}, {"k", "47"}, {"tile", "16"}}));
}

TEST_CASE("matmul: every variant does m*n*k FFMAs") {
  for (const char* name : {"matmul_naive", "matmul_coalesced", "matmul_tiled"}) {
    INFO(name);
    const KernelRun& r = run_defaults(name);
    require_clean_pass(r);
    CHECK(r.total(Counter::FFma) == 256u * 256u * 256u);
    CHECK(r.launches[0].totals.flops() == 2u * 256u * 256u * 256u);
  }
}

TEST_CASE("matmul_naive vs matmul_coalesced: sectors per warp and k step, 33 vs 5") {
  const KernelRun& naive = run_defaults("matmul_naive");
  const KernelRun& coalesced = run_defaults("matmul_coalesced");
  require_clean_pass(naive);
  require_clean_pass(coalesced);
  // Both issue two load requests (A and B) per warp per k step and one store.
  CHECK(naive.total(Counter::GlobalLdRequests) == kWarps * kK * 2);
  CHECK(coalesced.total(Counter::GlobalLdRequests) == kWarps * kK * 2);
  // Naive: lanes = rows, so A is 32 sectors and B (one column) 1 sector; the
  // store writes 32 rows = 32 sectors.
  CHECK(naive.total(Counter::GlobalLdSectors) == kWarps * kK * (32 + 1));
  CHECK(naive.total(Counter::GlobalStSectors) == kWarps * 32);
  // Coalesced: lanes = columns, so A is 1 sector and B 32 floats = 4 sectors.
  CHECK(coalesced.total(Counter::GlobalLdSectors) == kWarps * kK * (1 + 4));
  CHECK(coalesced.total(Counter::GlobalStSectors) == kWarps * 4);
}

TEST_CASE("matmul_tiled: global loads drop by the tile size, shared reads are conflict-free") {
  SUBCASE("tile 32") {
    // 64 blocks of 32 warps, 8 steps along k; per warp and step: one A and one B
    // load of 32 neighbouring floats (4 sectors), two shared stores, and in the inner
    // loop 32 Bs loads and 32 As words, which the pass fuses in pairs (LDS.64: clang
    // unrolls this loop two steps at a time, so a pair is the run it sees; nvcc unrolls
    // it whole and issues 8 LDS.128, ncu's 655,360 loads and 786,432 wavefronts).
    const KernelRun& r = run_defaults("matmul_tiled");
    require_clean_pass(r);
    const std::uint64_t warp_steps = 64 * 32 * 8;
    CHECK(r.total(Counter::GlobalLdRequests) == warp_steps * 2);
    CHECK(r.total(Counter::GlobalLdSectors) == warp_steps * 2 * 4);
    CHECK(r.total(Counter::GlobalStSectors) == kWarps * 4);
    CHECK(r.total(Counter::SharedStInst) == warp_steps * 2);
    CHECK(r.total(Counter::SharedLdInst) == warp_steps * (32 + 16));
    CHECK(r.total(Counter::SharedLdWavefronts) == warp_steps * (32 + 16 * 2));  // an LDS.64: one per half-warp
    CHECK(r.total(Counter::SharedLdConflicts) == 0);
    CHECK(r.total(Counter::SharedStConflicts) == 0);
  }
  SUBCASE("tile 16") {
    // 256 blocks of 8 warps, 16 steps. A warp spans two tile rows of 16 floats
    // (64 bytes, 2 sectors each): 4 sectors per load. In the inner loop Bs[i][tx] is
    // 16 consecutive words read by both half-warps (one wavefront), and a thread's 16
    // As[ty][i] are 4 LDS.128 as nvcc issues them (two 16-byte words 16 banks apart,
    // one per half-warp: 2 wavefronts): ncu's 655,360 and 786,432 on the H200.
    KernelRun r = run_kernel("matmul_tiled", {{"tile", "16"}});
    require_clean_pass(r);
    const std::uint64_t warp_steps = 256 * 8 * 16;
    CHECK(r.total(Counter::GlobalLdRequests) == warp_steps * 2);
    CHECK(r.total(Counter::GlobalLdSectors) == warp_steps * 2 * 4);
    CHECK(r.total(Counter::SharedLdInst) == warp_steps * (16 + 4));
    CHECK(r.total(Counter::SharedLdWavefronts) == warp_steps * (16 + 4 * 2));
    CHECK(r.total(Counter::SharedLdConflicts) == 0);
  }
}
