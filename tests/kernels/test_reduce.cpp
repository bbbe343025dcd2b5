// The vector-sum reductions: odd sizes and the counters that tell the four
// kernels apart, derived by hand for the first launch of the default run:
// n = 2^20, 256 threads = 8 warps per block, 4096 blocks, all full.
#include "run_kernel.hpp"

using simt::Counter;

namespace {
constexpr std::uint64_t kBlocks = 4096;
const char* const kReductions[] = {"reduce_interleaved_divergent", "reduce_interleaved_strided", "reduce_sequential",
                                   "reduce_warp_shuffle"};
}  // namespace

TEST_CASE("reductions: sizes that are not multiples of the block, several passes") {
  for (const char* name : kReductions) {
    INFO(name);
    require_clean_pass(run_kernel(name, {{"n", "1"}}));
    require_clean_pass(run_kernel(name, {{"n", "1000"}, {"block", "64"}}));
    KernelRun r = run_kernel(name, {{"n", "300001"}, {"block", "32"}});  // 9376 -> 293 -> 10 -> 1
    require_clean_pass(r);
    CHECK(r.launches.size() == 4);
    require_clean_pass(run_kernel(name, {{"n", "5000"}, {"block", "1024"}}));
  }
  CHECK_THROWS_WITH(run_kernel("reduce_sequential", {{"block", "96"}}), doctest::Contains("power of two"));
}

TEST_CASE("reductions: FADD count of every pass of the default run (255 adds per 256-thread block)") {
  // Pass 1: 4096 blocks x 255 adds; pass 2: 16 blocks x 255; pass 3: 1 block
  // of 256 lanes holding 16 values and 240 zeros, still 255 adds. The tree
  // kernels add every pair; the shuffle kernel adds each shuffled value, 31
  // per warp in registers plus 31 in warp 0's second round (7 real, 24 zeros).
  for (const char* name : {"reduce_interleaved_divergent", "reduce_interleaved_strided", "reduce_sequential"}) {
    const KernelRun& r = run_defaults(name);
    require_clean_pass(r);
    REQUIRE(r.launches.size() == 3);
    CHECK(r.total(Counter::FAdd, 0) == kBlocks * 255);
    CHECK(r.total(Counter::FAdd, 1) == 16 * 255);
    CHECK(r.total(Counter::FAdd, 2) == 255);
  }
  const KernelRun& r = run_defaults("reduce_warp_shuffle");
  require_clean_pass(r);
  // Lanes that shuffle from beyond the warp's end add their own value again
  // (__shfl_down_sync returns the caller's value): all 32 lanes add 5 times.
  CHECK(r.total(Counter::FAdd, 0) == kBlocks * (8 * 32 * 5 + 32 * 5));
}

TEST_CASE("divergent vs sequential: same work, 3x fewer active lanes per warp instruction") {
  const KernelRun& divergent = run_defaults("reduce_interleaved_divergent");
  const KernelRun& sequential = run_defaults("reduce_sequential");
  require_clean_pass(divergent);
  require_clean_pass(sequential);
  // Per block, instructions simtlab counts: the global load and the shared
  // store, every warp, 32 lanes: 16 instructions, 512 lane-instructions.
  // Each step's add is 4 instructions (2 shared loads, FADD, shared store) per
  // warp with any active lane; the final read of partial[0] and store to out
  // are 2 one-lane instructions.
  //  divergent, s = 1,2,4,8,16: all 8 warps, 16,8,4,2,1 lanes -> 160 inst, 992 lanes
  //             s = 32,64,128: 4,2,1 warps of one lane        ->  28 inst,  28 lanes
  //  sequential, s = 128,64,32: 4,2,1 full warps              ->  28 inst, 896 lanes
  //              s = 16..1: warp 0 only, 16,8,4,2,1 lanes      ->  20 inst, 124 lanes
  // Both: 1534 lane-instructions; 206 vs 66 warp instructions.
  CHECK(divergent.total(Counter::ThreadInst) == kBlocks * 1534);
  CHECK(sequential.total(Counter::ThreadInst) == kBlocks * 1534);
  CHECK(divergent.total(Counter::WarpInst) == kBlocks * 206);
  CHECK(sequential.total(Counter::WarpInst) == kBlocks * 66);
  CHECK(divergent.active_lanes() < 8.0);
  CHECK(sequential.active_lanes() > 23.0);
}

TEST_CASE("strided vs sequential: the strided index costs bank conflicts, sequential none") {
  const KernelRun& strided = run_defaults("reduce_interleaved_strided");
  const KernelRun& sequential = run_defaults("reduce_sequential");
  const KernelRun& divergent = run_defaults("reduce_interleaved_divergent");
  // Strided, per block: at step s the active lanes touch words 2s*tid and
  // 2s*tid + s. Wavefronts per access = lanes sharing the busiest bank:
  //   s   active threads  warps  ways   extra wavefronts (x3 accesses x warps)
  //   1        128          4      2      1 x 3 x 4 = 12
  //   2         64          2      4      3 x 3 x 2 = 18
  //   4         32          1      8      7 x 3     = 21
  //   8         16          1      8      7 x 3     = 21   (banks 0 and 16)
  //   16         8          1      8      7 x 3     = 21   (all in bank 0)
  //   32         4          1      4      3 x 3     =  9
  //   64         2          1      2      1 x 3     =  3
  //   128        1          1      1                   0
  // 105 per block, 70 on loads and 35 on stores.
  CHECK(strided.total(Counter::SharedLdConflicts) == kBlocks * 70);
  CHECK(strided.total(Counter::SharedStConflicts) == kBlocks * 35);
  CHECK(sequential.total(Counter::SharedLdConflicts) + sequential.total(Counter::SharedStConflicts) == 0);
  // The divergent kernel's active lanes touch at most one word per bank.
  CHECK(divergent.total(Counter::SharedLdConflicts) + divergent.total(Counter::SharedStConflicts) == 0);
}

TEST_CASE("warp shuffle: registers instead of shared memory") {
  const KernelRun& r = run_defaults("reduce_warp_shuffle");
  require_clean_pass(r);
  // Per block: 8 warps x 5 shuffles, then warp 0 another 5: 45 warp collectives.
  CHECK(r.total(Counter::WarpCollectives) == kBlocks * 45);
  // Shared memory: one store per warp (lane 0 only), one load by warp 0.
  CHECK(r.total(Counter::SharedStInst) == kBlocks * 8);
  CHECK(r.total(Counter::SharedLdInst) == kBlocks * 1);
  CHECK(r.total(Counter::SharedLdConflicts) == 0);
  // Global traffic is the same as the tree kernels': 4 sectors per warp load.
  CHECK(r.total(Counter::GlobalLdSectors) == kBlocks * 8 * 4);
}
