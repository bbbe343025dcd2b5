// The quantized GEMV ladder (kernels/gemv_common.cuh): odd shapes against the
// dequantized double reference, and the bytes each format reads per token, derived
// by hand. Default run: 2048 rows x 2048 columns, 128 blocks of 16 rows; every row
// and x start on a 256-byte boundary (cudaMalloc), so a warp's 128 consecutive bytes
// are exactly 4 sectors.
#include "run_kernel.hpp"

using simt::Counter;

namespace {
const char* const kGemvs[] = {"gemv_fp16", "gemv_int8", "gemv_int4", "gemv_fp8"};
constexpr std::uint64_t kRows = 2048, kCols = 2048, kBlocks = kRows / 16;
}  // namespace

TEST_CASE("gemv versions: odd shapes, partial int4 groups, rows not a multiple of the block's 16") {
  for (const char* name : kGemvs) {
    INFO(name);
    require_clean_pass(run_kernel(name, {{"rows", "37"}, {"cols", "100"}}));
    require_clean_pass(run_kernel(name, {{"rows", "5"}, {"cols", "1"}}));
    require_clean_pass(run_kernel(name, {{"rows", "19"}, {"cols", "257"}}));  // a group of 1, 257 % 8 = 1
    require_clean_pass(run_kernel(name, {{"rows", "3"}, {"cols", "1031"}}));  // lanes with one more word than others
  }
}

TEST_CASE("gemv versions at the defaults: bytes of W per weight 2, 1, 0.5 (+ scales), 1") {
  // Each version's load sectors: W once (rows x bytes per row / 32), x once per block
  // (staged in shared memory), and the scales.
  const std::uint64_t w16 = kRows * kCols * 2 / 32, x16 = kBlocks * kCols * 2 / 32;
  const KernelRun& fp16 = run_defaults("gemv_fp16");
  require_clean_pass(fp16);
  CHECK(fp16.total(Counter::GlobalLdSectors) == w16 + x16);
  // Requests: a row is 1024 half2 = 32 warp loads of 4 sectors; x is 1024 half2
  // copied by 256 threads: 4 rounds of 8 warps per block.
  CHECK(fp16.total(Counter::GlobalLdRequests) == kRows * 32 + kBlocks * 32);
  CHECK(fp16.total(Counter::GlobalStSectors) == kRows);  // lane 0's y[row]
  CHECK(fp16.total(Counter::FFma) == kRows * kCols);

  const KernelRun& int8 = run_defaults("gemv_int8");
  require_clean_pass(int8);
  REQUIRE(int8.launches.size() == 2);
  // Launch 0 quantizes x: one block of 8 warps reads x (2 bytes x 2048 = 128 sectors,
  // 64 bytes = 2 sectors per warp load) twice — amax, then round — and writes 2048
  // int8 (64 sectors) and the scale (1).
  CHECK(int8.total(Counter::GlobalLdRequests, 0) == 2 * (kCols / 256) * 8);
  CHECK(int8.total(Counter::GlobalLdSectors, 0) == 2 * kCols * 2 / 32);
  CHECK(int8.total(Counter::GlobalStSectors, 0) == kCols / 32 + 1);
  // Launch 1: W at 1 byte per weight; x int8 and its scale once per block;
  // w_scale[row] loaded by lane 0: one sector per row.
  CHECK(int8.total(Counter::GlobalLdSectors, 1) == kRows * kCols / 32 + kBlocks * (kCols / 32 + 1) + kRows);
  CHECK(int8.total(Counter::GlobalLdRequests, 1) == kRows * (16 + 1) + kBlocks * (16 + 1));
  // No FP in the inner loop: the __dp4a chain is integer; two FMULs per row to scale.
  CHECK(int8.total(Counter::FFma, 1) + int8.total(Counter::FAdd, 1) + int8.total(Counter::HAdd, 1) == 0);
  CHECK(int8.total(Counter::FMul, 1) == 2 * kRows);

  const KernelRun& int4 = run_defaults("gemv_int4");
  require_clean_pass(int4);
  // W: 256 words per row = 8 warp loads of 4 sectors; per load the warp's 32 lanes
  // read 2 groups' half2 (scale, zero): one request, one sector; x: 256 uint4 (16
  // bytes) per block, 128 sectors.
  CHECK(int4.total(Counter::GlobalLdSectors) == kRows * kCols / 2 / 32 + kRows * 8 + kBlocks * kCols * 2 / 32);
  CHECK(int4.total(Counter::GlobalLdRequests) == kRows * (8 + 8) + kBlocks * 8);

  const KernelRun& fp8 = run_defaults("gemv_fp8");
  require_clean_pass(fp8);
  CHECK(fp8.total(Counter::GlobalLdSectors) == kRows * kCols / 32 + x16 + kRows);
  CHECK(fp8.total(Counter::FFma) == kRows * kCols);

  // The DRAM estimate counts every byte once: W, the scales, x and y.
  const std::uint64_t x_bytes = kCols * 2, y_bytes = kRows * 4;
  CHECK(fp16.total(Counter::DramReadBytes) == kRows * kCols * 2 + x_bytes);
  CHECK(int8.total(Counter::DramReadBytes, 0) == x_bytes);
  CHECK(int8.total(Counter::DramReadBytes, 1) == kRows * kCols + kCols + kRows * 4 + 32);  // + x_scale's sector
  CHECK(int4.total(Counter::DramReadBytes) == kRows * kCols / 2 + kRows * (kCols / 128) * 4 + x_bytes);
  CHECK(fp8.total(Counter::DramReadBytes) == kRows * kCols + kRows * 4 + x_bytes);
  CHECK(fp16.total(Counter::DramWriteBytes) == y_bytes);
}
