// The LayerNorm ladder (kernels/layernorm_common.cuh): odd shapes against the
// double reference, and the counter facts each version's header claims, derived by
// hand for the default run: 1024 rows x 768 columns, a row of x (and gamma, and
// beta) is 3072 bytes = 96 sectors = 24 warp-wide float loads, on sector boundaries.
#include "run_kernel.hpp"

using simt::Counter;

namespace {
const char* const kLayerNorms[] = {"layernorm_two_pass", "layernorm_welford", "layernorm_fused",
                                   "layernorm_vectorized", "layernorm_half2"};
constexpr std::uint64_t kRows = 1024, kCols = 768, kRowSectors = kCols * 4 / 32, kRowRequests = kCols / 32;
}  // namespace

TEST_CASE("layernorm versions: odd shapes, cols not a multiple of 32, 128 or 4") {
  for (const char* name : kLayerNorms) {
    INFO(name);
    require_clean_pass(run_kernel(name, {{"rows", "37"}, {"cols", "100"}}));
    require_clean_pass(run_kernel(name, {{"rows", "3"}, {"cols", "5"}}));
    require_clean_pass(run_kernel(name, {{"rows", "5"}, {"cols", "1"}}));  // variance 0: out = beta
    require_clean_pass(run_kernel(name, {{"rows", "11"}, {"cols", "131"}}));
    require_clean_pass(run_kernel(name, {{"rows", "2"}, {"cols", "13001"}}));  // past 48 KiB of shared memory
  }
}

TEST_CASE("layernorm_two_pass makes 3 launches, each reading x once, coalesced") {
  const KernelRun& r = run_defaults("layernorm_two_pass");
  require_clean_pass(r);
  REQUIRE(r.launches.size() == 3);
  CHECK(r.total(Counter::GlobalLdSectors, 0) == kRows * kRowSectors);
  CHECK(r.total(Counter::GlobalLdRequests, 0) == kRows * kRowRequests);
  // x again, and each warp's mean (one request, one sector).
  CHECK(r.total(Counter::GlobalLdSectors, 1) == kRows * kRowSectors + kRows);
  // x, gamma and beta, and each warp's mean and rstd (a warp of 32 elements is in one row).
  CHECK(r.total(Counter::GlobalLdSectors, 2) == 3 * kRows * kRowSectors + 2 * kRows * kRowRequests);
  CHECK(r.total(Counter::WarpBarriers, 0) + r.total(Counter::WarpBarriers, 1) + r.total(Counter::WarpBarriers, 2) ==
        0);
}

TEST_CASE("layernorm_welford: 1 launch, x read twice, a division per element") {
  const KernelRun& r = run_defaults("layernorm_welford");
  require_clean_pass(r);
  REQUIRE(r.launches.size() == 1);
  CHECK(r.total(Counter::GlobalLdSectors) == 4 * kRows * kRowSectors);  // x twice, gamma, beta
  CHECK(r.total(Counter::WarpBarriers) == 0);
  CHECK(r.total(Counter::SharedLdInst) + r.total(Counter::SharedStInst) == 0);
  // Per element one update division; per lane 5 merges of 2 and the final m2 / cols.
  CHECK(r.total(Counter::FDiv) == kRows * kCols + kRows * 32 * 11);
}

TEST_CASE("layernorm_fused: 1 launch, x read from global memory once, one barrier per row") {
  const KernelRun& r = run_defaults("layernorm_fused");
  require_clean_pass(r);
  REQUIRE(r.launches.size() == 1);
  CHECK(r.total(Counter::GlobalLdSectors) == 3 * kRows * kRowSectors);  // x, gamma, beta once each
  CHECK(r.total(Counter::GlobalLdRequests) == 3 * kRows * kRowRequests);
  CHECK(r.total(Counter::WarpBarriers) == kRows * 4);  // one __syncthreads, 4 warps
  // Per row: the row stored and read back (24 + 24), 8 partial stores, and each of 4
  // warps reads the 8 partials as two LDS.128 broadcasts (2 wavefronts each), as ncu counts.
  CHECK(r.total(Counter::SharedLdWavefronts) + r.total(Counter::SharedStWavefronts) == kRows * (24 + 24 + 8 + 4 * 2 * 2));
  CHECK(r.total(Counter::SharedLdConflicts) + r.total(Counter::SharedStConflicts) == 0);
}

TEST_CASE("layernorm_vectorized: fused's sectors in a quarter of the requests; scalar when cols % 4 != 0") {
  const KernelRun& fused = run_defaults("layernorm_fused");
  const KernelRun& vec = run_defaults("layernorm_vectorized");
  require_clean_pass(vec);
  REQUIRE(vec.launches.size() == 1);
  CHECK(vec.total(Counter::GlobalLdSectors) == fused.total(Counter::GlobalLdSectors));
  CHECK(vec.total(Counter::GlobalStSectors) == fused.total(Counter::GlobalStSectors));
  CHECK(4 * vec.total(Counter::GlobalLdRequests) == fused.total(Counter::GlobalLdRequests));
  // out's stores go 4x fewer; mean and rstd are one store each per row in both.
  CHECK(4 * (vec.total(Counter::GlobalStRequests) - 2 * kRows) == fused.total(Counter::GlobalStRequests) - 2 * kRows);
  CHECK(vec.total(Counter::WarpInst) < fused.total(Counter::WarpInst));
  CHECK(vec.total(Counter::WarpBarriers) == kRows * 4);

  const std::map<std::string, std::string> odd = {{"rows", "37"}, {"cols", "101"}};
  const KernelRun scalar = run_kernel("layernorm_vectorized", odd);
  require_clean_pass(scalar);
  CHECK(scalar.total(Counter::GlobalLdRequests) == run_kernel("layernorm_fused", odd).total(Counter::GlobalLdRequests));
}

TEST_CASE("layernorm_half2: half of layernorm_vectorized's sectors and requests; scalar when cols % 8 != 0") {
  const KernelRun& vec = run_defaults("layernorm_vectorized");
  const KernelRun& half = run_defaults("layernorm_half2");
  require_clean_pass(half);
  REQUIRE(half.launches.size() == 1);
  // x, gamma and beta: 768 halves = 48 sectors a row each, in 3 warp-wide 16-byte loads.
  CHECK(2 * half.total(Counter::GlobalLdSectors) == vec.total(Counter::GlobalLdSectors));
  CHECK(2 * half.total(Counter::GlobalLdRequests) == vec.total(Counter::GlobalLdRequests));
  // out halves; mean and rstd (fp32, one sector each per row) as before.
  CHECK(2 * (half.total(Counter::GlobalStSectors) - 2 * kRows) == vec.total(Counter::GlobalStSectors) - 2 * kRows);
  CHECK(half.total(Counter::SharedLdConflicts) + half.total(Counter::SharedStConflicts) == 0);

  require_clean_pass(run_kernel("layernorm_half2", {{"rows", "3"}, {"cols", "25001"}}));  // past 48 KiB of halves
  const std::map<std::string, std::string> odd = {{"rows", "37"}, {"cols", "100"}};   // 100 % 8 != 0
  const KernelRun scalar = run_kernel("layernorm_half2", odd);
  require_clean_pass(scalar);
  CHECK(scalar.total(Counter::GlobalLdRequests) == run_kernel("layernorm_fused", odd).total(Counter::GlobalLdRequests));
}
