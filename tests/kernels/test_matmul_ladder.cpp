// The GEMM ladder (kernels/matmul_common.cuh, Boehm's steps): every rung at odd shapes
// against the Eigen reference, and the counter facts each kernel's header claims,
// derived by hand for the default run, m = n = k = 256, batch 1. Every tile is full
// there and every row of A, B and C starts on a sector boundary.
#include "run_kernel.hpp"

using simt::Counter;

namespace {
const char* const kRungs[] = {"matmul_blocktile_1d", "matmul_blocktile_2d", "matmul_vectorized", "matmul_warptile"};
constexpr std::uint64_t kN = 256, kFfma = kN * kN * kN;
}  // namespace

TEST_CASE("matmul ladder: odd shapes, batched, against the reference") {
  for (const char* name : kRungs) {
    INFO(name);
    // n % 4 != 0: matmul_vectorized and matmul_warptile take their scalar path.
    require_clean_pass(run_kernel(name, {{"batch", "3"}, {"m", "37"}, {"n", "50"}, {"k", "29"}}));
    // k % 4 == 0 and n % 4 == 0: the float4 path, with partial tiles along m, n and k.
    require_clean_pass(run_kernel(name, {{"batch", "2"}, {"m", "37"}, {"n", "52"}, {"k", "28"}}));
    require_clean_pass(run_kernel(name, {{"batch", "1"}, {"m", "1"}, {"n", "70"}, {"k", "65"}}));
    // Several blocks each way, none of m, n, k a multiple of 4 or of a tile.
    require_clean_pass(run_kernel(name, {{"batch", "1"}, {"m", "129"}, {"n", "131"}, {"k", "133"}}));
    // k % 4 == 0 but n % 4 != 0 (scalar path), and the reverse (scalar path).
    require_clean_pass(run_kernel(name, {{"batch", "2"}, {"m", "130"}, {"n", "66"}, {"k", "20"}}));
    require_clean_pass(run_kernel(name, {{"batch", "1"}, {"m", "40"}, {"n", "132"}, {"k", "21"}}));
  }
}

TEST_CASE("matmul ladder: every rung does m*n*k FFMAs and nothing else in floating point") {
  for (const char* name : kRungs) {
    INFO(name);
    const KernelRun& r = run_defaults(name);
    require_clean_pass(r);
    REQUIRE(r.launches.size() == 1);
    CHECK(r.total(Counter::FFma) == kFfma);
    CHECK(r.launches[0].totals.flops() == 2 * kFfma);
  }
}

TEST_CASE("matmul_blocktile_1d: 3 shared load instructions per 8 FFMAs, conflict-free, global loads half of matmul_tiled's") {
  // 16 blocks of 16 warps, 32 steps of BK = 8.
  const KernelRun& r = run_defaults("matmul_blocktile_1d");
  require_clean_pass(r);
  const std::uint64_t warp_steps = 16 * 16 * 32;
  // Per warp and step: A, 4 tile rows of 8 floats = 4 sectors; B, 32 floats of a row = 4.
  CHECK(r.total(Counter::GlobalLdRequests) == warp_steps * 2);
  CHECK(r.total(Counter::GlobalLdSectors) == warp_steps * 2 * 4);
  CHECK(r.total(Counter::GlobalLdSectors) == run_defaults("matmul_tiled").total(Counter::GlobalLdSectors) / 2);
  // 8 rows of 32 neighbouring floats per warp.
  CHECK(r.total(Counter::GlobalStRequests) == 16 * 16 * 8);
  CHECK(r.total(Counter::GlobalStSectors) == kN * kN * 4 / 32);
  // Per warp and step the source reads 8 x (1 Bs + 8 As) words; a thread's As words
  // As[(row + i) * 8 + d], d = 0..7, are two 16-byte runs, each one LDS.128 as nvcc
  // makes them (sim/compiler/pass/fused_shared.hpp): 8 Bs LDS of 32 neighbouring
  // words (1 wavefront) and 16 As LDS.128 of one run for the warp (2 wavefronts, one
  // per half-warp), as ncu counts them on the H200. And 2 stores of 32 neighbouring words.
  CHECK(r.total(Counter::SharedLdInst) == warp_steps * (8 + 16));
  CHECK(r.total(Counter::SharedLdWavefronts) == warp_steps * (8 * 1 + 16 * 2));
  CHECK(r.total(Counter::SharedLdConflicts) == 0);
  CHECK(r.total(Counter::SharedStInst) == warp_steps * 2);
  CHECK(r.total(Counter::SharedStWavefronts) == warp_steps * 2);
  CHECK(r.total(Counter::WarpBarriers) == warp_steps * 2);
}

TEST_CASE("matmul_blocktile_2d: 4 shared load instructions per 64 FFMAs, with the bank conflicts its header derives") {
  // 4 blocks of 8 warps, 32 steps of BK = 8.
  const KernelRun& r = run_defaults("matmul_blocktile_2d");
  require_clean_pass(r);
  const std::uint64_t warp_steps = 4 * 8 * 32;
  // Each block reads a 128-row slab of A and a 128-column slab of B once:
  // (128 * 256 + 256 * 128) * 4 bytes / 32 = 8192 sectors a block, half of 1-D tiling's.
  CHECK(r.total(Counter::GlobalLdSectors) == 4 * (128 * kN + kN * 128) * 4 / 32);
  CHECK(r.total(Counter::GlobalLdSectors) == run_defaults("matmul_blocktile_1d").total(Counter::GlobalLdSectors) / 2);
  CHECK(r.total(Counter::GlobalLdRequests) == warp_steps * (4 + 4));  // 4 passes over each tile, 4 sectors each
  // C: per warp 64 stores, each lane's float in a sector of its own.
  CHECK(r.total(Counter::GlobalStRequests) == 32 * 64);
  CHECK(r.total(Counter::GlobalStSectors) == 32 * 64 * 32);
  // Per warp and k the source reads 8 As and 8 Bs words a thread, each 8 in two
  // 16-byte runs: nvcc's 2 As LDS.128 (2 wavefronts, one per half-warp) and 2 Bs
  // LDS.128 (16 float4s 32 bytes apart: 8 wavefronts, 4 of them conflicts), as ncu
  // counts them on the H200 (32,768 instructions, 163,840 wavefronts, 65,536 conflicts).
  CHECK(r.total(Counter::SharedLdInst) == warp_steps * 8 * 4);
  CHECK(r.total(Counter::SharedLdWavefronts) == warp_steps * 8 * (2 * 2 + 2 * 8));
  CHECK(r.total(Counter::SharedLdConflicts) == warp_steps * 8 * 2 * 4);
  CHECK(r.total(Counter::SharedStInst) == warp_steps * 8);
  CHECK(r.total(Counter::SharedStConflicts) == 0);
}

TEST_CASE("matmul_vectorized: 2-D tiling's shared load instructions written as float4s, a quarter of its global load requests") {
  const KernelRun& r = run_defaults("matmul_vectorized");
  const KernelRun& scalar = run_defaults("matmul_blocktile_2d");
  require_clean_pass(r);
  const std::uint64_t warp_steps = 4 * 8 * 32;
  // The float4 reads the source writes are the LDS.128 nvcc made of 2-D tiling's.
  CHECK(r.total(Counter::SharedLdInst) == scalar.total(Counter::SharedLdInst));
  CHECK(r.total(Counter::SharedLdWavefronts) == scalar.total(Counter::SharedLdWavefronts));
  CHECK(r.total(Counter::SharedLdInst) == warp_steps * 8 * 4);
  // Per warp and k: 2 As LDS.128 of one word per half-warp (2 wavefronts, none a
  // conflict), 2 Bs LDS.128 of 16 float4s 32 bytes apart (8 wavefronts, 4 conflicts).
  CHECK(r.total(Counter::SharedLdWavefronts) == warp_steps * 8 * (2 * 2 + 2 * 8));
  CHECK(r.total(Counter::SharedLdConflicts) == warp_steps * 8 * 2 * 4);
  // Stores per warp and step: 4 transposed scalars to As (2-way), one float4 to Bs (4
  // wavefronts for 512 bytes, no conflict).
  CHECK(r.total(Counter::SharedStInst) == warp_steps * 5);
  CHECK(r.total(Counter::SharedStWavefronts) == warp_steps * (4 * 2 + 4));
  CHECK(r.total(Counter::SharedStConflicts) == warp_steps * 4);
  // float4 copies: one request per tile per warp and step, the same sectors.
  CHECK(r.total(Counter::GlobalLdRequests) * 4 == scalar.total(Counter::GlobalLdRequests));
  CHECK(r.total(Counter::GlobalLdSectors) == scalar.total(Counter::GlobalLdSectors));
  // C: 16 float4 stores per warp, each lane's in its own sector.
  CHECK(r.total(Counter::GlobalStRequests) == 32 * 16);
  CHECK(r.total(Counter::GlobalStSectors) == 32 * 16 * 32);
}

TEST_CASE("matmul_vectorized and matmul_warptile: n % 4 != 0 falls back to scalar global accesses") {
  // n = 252 takes the float4 path, n = 250 the scalar one; same grid and tiles.
  for (const char* name : {"matmul_vectorized", "matmul_warptile"}) {
    INFO(name);
    const KernelRun vec = run_kernel(name, {{"n", "252"}});
    const KernelRun scalar = run_kernel(name, {{"n", "250"}});
    require_clean_pass(vec);
    require_clean_pass(scalar);
    CHECK(scalar.total(Counter::GlobalLdRequests) == 4 * vec.total(Counter::GlobalLdRequests));
    CHECK(scalar.total(Counter::SharedLdInst) == vec.total(Counter::SharedLdInst));  // the inner loop is unchanged
  }
}

TEST_CASE("matmul_warptile: 6 LDS.128 per 128 FFMAs, conflict-free loads, every C sector stored once") {
  // 4 blocks of 4 warps, 16 steps of BK = 16.
  const KernelRun& r = run_defaults("matmul_warptile");
  require_clean_pass(r);
  const std::uint64_t warp_steps = 4 * 4 * 16;
  CHECK(r.total(Counter::SharedLdInst) == warp_steps * 16 * 6);
  CHECK(r.total(Counter::SharedLdWavefronts) == warp_steps * 16 * 6 * 2);  // one per half-warp
  CHECK(r.total(Counter::SharedLdConflicts) == 0);
  // Stores per warp and step: 16 transposed scalars to As (8 rows, 4 words in each
  // bank: 4 wavefronts), 4 float4s to Bs (4 wavefronts, no conflict).
  CHECK(r.total(Counter::SharedStInst) == warp_steps * (16 + 4));
  CHECK(r.total(Counter::SharedStWavefronts) == warp_steps * (16 * 4 + 4 * 4));
  CHECK(r.total(Counter::SharedStConflicts) == warp_steps * 16 * 3);
  // Global loads: 4 float4 copies of A (8 rows x 64 bytes = 16 sectors) and 4 of B
  // (512 bytes of a row = 16 sectors) per warp and step: the sectors of 2-D tiling.
  CHECK(r.total(Counter::GlobalLdRequests) == warp_steps * 8);
  CHECK(r.total(Counter::GlobalLdSectors) == warp_steps * 8 * 16);
  CHECK(r.total(Counter::GlobalLdSectors) == run_defaults("matmul_blocktile_2d").total(Counter::GlobalLdSectors));
  // C: 32 float4 stores per warp of 8 rows x 64 bytes: 16 sectors each, C's once.
  CHECK(r.total(Counter::GlobalStRequests) == 16 * 32);
  CHECK(r.total(Counter::GlobalStSectors) == kN * kN * 4 / 32);
  CHECK(r.total(Counter::WarpBarriers) == warp_steps * 2);
}
