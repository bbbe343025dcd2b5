// The softmax ladder (kernels/softmax_common.cuh): odd shapes and the causal mask
// against the double reference, and the counter facts each version's header
// claims, derived by hand for the default run: 1024 rows x 1000 columns, a row is
// 4000 bytes = 125 sectors, every row starts on a sector boundary.
#include "run_kernel.hpp"

using simt::Counter;

namespace {
const char* const kSoftmaxes[] = {"softmax_naive", "softmax_online", "softmax_warp_per_row", "softmax_block_per_row",
                                  "softmax_lightseq"};
constexpr std::uint64_t kRows = 1024, kRowSectors = 1000 * 4 / 32;

std::uint64_t sum_over_launches(const KernelRun& r, Counter c) {
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < r.launches.size(); ++i) total += r.total(c, i);
  return total;
}
}  // namespace

TEST_CASE("softmax versions: odd shapes, with and without the causal mask") {
  for (const char* name : kSoftmaxes) {
    INFO(name);
    for (const char* causal : {"0", "1"}) {
      INFO("causal " << causal);
      require_clean_pass(run_kernel(name, {{"rows", "37"}, {"cols", "100"}, {"causal", causal}}));
      require_clean_pass(run_kernel(name, {{"rows", "3"}, {"cols", "5"}, {"causal", causal}}));
      require_clean_pass(run_kernel(name, {{"rows", "5"}, {"cols", "1"}, {"causal", causal}}));
      require_clean_pass(run_kernel(name, {{"rows", "70"}, {"cols", "33"}, {"causal", causal}}));  // rows > cols
    }
  }
}

TEST_CASE("softmax versions: masked entries are exactly 0, each visible row sums to 1") {
  for (const char* name : kSoftmaxes) {
    INFO(name);
    const int rows = 37, cols = 100;
    const KernelRun r = run_kernel(name, {{"rows", "37"}, {"cols", "100"}, {"causal", "1"}});
    require_clean_pass(r);
    const std::vector<float>& y = r.outputs.at("y").data;
    for (int i = 0; i < rows; ++i) {
      double sum = 0;
      for (int j = 0; j < cols; ++j) {
        if (j > i) CHECK(y[std::size_t(i) * cols + j] == 0.0f);
        sum += y[std::size_t(i) * cols + j];
      }
      CHECK(sum == doctest::Approx(1.0).epsilon(1e-5));
    }
  }
}

TEST_CASE("softmax_naive makes 3 launches; the thread-per-row passes load 32 sectors per request") {
  const KernelRun& r = run_defaults("softmax_naive");
  require_clean_pass(r);
  REQUIRE(r.launches.size() == 3);
  // Row max: 32 warps x 1000 columns = 32000 requests, each lane in its own row.
  CHECK(r.total(Counter::GlobalLdRequests, 0) == 32 * 1000);
  CHECK(r.total(Counter::GlobalLdSectors, 0) == 32 * 32 * 1000);
  // Row sum: the same, plus each warp's load of its 32 row maxima (4 sectors).
  CHECK(r.total(Counter::GlobalLdSectors, 1) == 32 * 32 * 1000 + 32 * 4);
  // Normalise: one thread per element, x coalesced (plus the max and sum of each warp's rows).
  CHECK(r.total(Counter::GlobalLdSectors, 2) > kRows * kRowSectors);
  CHECK(r.total(Counter::GlobalStSectors, 2) == kRows * kRowSectors);
}

TEST_CASE("softmax_online makes 2 launches: one thread-per-row pass over x fewer than naive") {
  const KernelRun& naive = run_defaults("softmax_naive");
  const KernelRun& online = run_defaults("softmax_online");
  require_clean_pass(online);
  REQUIRE(online.launches.size() == 2);
  CHECK(online.total(Counter::GlobalLdSectors, 0) == 32 * 32 * 1000);  // (max, sum) from one read
  CHECK(online.total(Counter::GlobalLdSectors, 1) == naive.total(Counter::GlobalLdSectors, 2));
  CHECK(sum_over_launches(naive, Counter::GlobalLdSectors) - sum_over_launches(online, Counter::GlobalLdSectors) ==
        32 * 32 * 1000 + 32 * 4);
}

TEST_CASE("softmax_warp_per_row launches once, reads x twice coalesced, no shared memory, no barrier") {
  const KernelRun& r = run_defaults("softmax_warp_per_row");
  require_clean_pass(r);
  REQUIRE(r.launches.size() == 1);
  CHECK(r.total(Counter::GlobalLdSectors) == 2 * kRows * kRowSectors);
  // 1000 columns = 31 full warp loads of 4 sectors and one of 8 lanes, 1 sector, per read.
  CHECK(r.total(Counter::GlobalLdRequests) == 2 * kRows * 32);
  CHECK(r.total(Counter::GlobalStSectors) == kRows * kRowSectors);
  CHECK(r.total(Counter::SharedLdInst) + r.total(Counter::SharedStInst) == 0);
  CHECK(r.total(Counter::WarpBarriers) == 0);
  CHECK(r.total(Counter::WarpCollectives) > 0);
}

TEST_CASE("softmax_block_per_row launches once and reads x from global memory once") {
  const KernelRun& r = run_defaults("softmax_block_per_row");
  require_clean_pass(r);
  REQUIRE(r.launches.size() == 1);
  // Load sectors == ceil(cols * 4 / 32) per row, summed (rows start on sector boundaries).
  CHECK(r.total(Counter::GlobalLdSectors) == kRows * kRowSectors);
  CHECK(r.total(Counter::GlobalStSectors) == kRows * kRowSectors);
  // One barrier per warp per row (4 warps), and per row 104 shared wavefronts: the row
  // stored and read back (32 warp accesses each), 8 pair stores, 32 broadcast pair reads.
  CHECK(r.total(Counter::WarpBarriers) == kRows * 4);
  CHECK(r.total(Counter::SharedLdWavefronts) + r.total(Counter::SharedStWavefronts) == kRows * 104);
  CHECK(r.total(Counter::SharedLdConflicts) + r.total(Counter::SharedStConflicts) == 0);
}

TEST_CASE("softmax_block_per_row: rows wider than 48 KiB of shared memory read x twice") {
  const KernelRun r = run_kernel("softmax_block_per_row", {{"rows", "3"}, {"cols", "13000"}});
  require_clean_pass(r);
  CHECK(r.total(Counter::GlobalLdSectors) == 2 * 3 * (13000 * 4 / 32));
  CHECK(r.total(Counter::SharedStInst) == 3 * 4 * 2);  // only the warp pairs
  require_clean_pass(run_kernel("softmax_block_per_row", {{"rows", "40"}, {"cols", "12289"}, {"causal", "1"}}));
}

TEST_CASE("softmax_lightseq reads x once with no shared copy of the row, and one expf per value") {
  const KernelRun& r = run_defaults("softmax_lightseq");
  const KernelRun& block = run_defaults("softmax_block_per_row");
  require_clean_pass(r);
  REQUIRE(r.launches.size() == 1);
  CHECK(r.total(Counter::GlobalLdSectors) == kRows * kRowSectors);
  CHECK(r.total(Counter::GlobalStSectors) == kRows * kRowSectors);
  // Per row, two block reductions: 4 warps store a partial (4 wavefronts) and every warp
  // reads the 4 partials as one LDS.128 broadcast (2 wavefronts, 8), twice: 24
  // wavefronts, as ncu counts them; two barriers per warp per row.
  CHECK(r.total(Counter::SharedLdWavefronts) + r.total(Counter::SharedStWavefronts) == kRows * 24);
  CHECK(r.total(Counter::WarpBarriers) == kRows * 4 * 2);
  // One expf per value against two (the online pair and the output): fewer FP32 operations.
  CHECK(r.launches[0].totals.flops() < block.launches[0].totals.flops());
}

TEST_CASE("softmax_lightseq: rows wider than its registers hold are refused, naming the limit") {
  require_clean_pass(run_kernel("softmax_lightseq", {{"rows", "3"}, {"cols", "4096"}, {"causal", "1"}}));
  CHECK_THROWS_WITH_AS(run_kernel("softmax_lightseq", {{"rows", "3"}, {"cols", "4097"}}),
                       doctest::Contains("at most 4096 columns"), std::invalid_argument);
}
