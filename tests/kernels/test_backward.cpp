// The backward passes of the softmax and LayerNorm ladders (kernels/softmax_common.cuh
// and layernorm_common.cuh, namespaces softmax_backward and layernorm_backward): odd
// shapes against the double references, and the counter facts each header claims,
// derived by hand for the default runs: softmax 1024 x 1000 (a row 125 sectors, 32
// warp loads of which the last is 8 lanes), LayerNorm 1024 x 768 (a row 96 sectors,
// 24 warp loads), rows on sector boundaries.
#include "run_kernel.hpp"
#include "sim/report/report.hpp"

#include <set>
#include <vector>

using simt::Counter;

namespace {
const char* const kSoftmaxBackwards[] = {"softmax_backward_naive", "softmax_backward_warp_per_row",
                                         "softmax_backward_lightseq"};
const char* const kLayerNormBackwards[] = {"layernorm_backward_naive", "layernorm_backward_fused"};
constexpr std::uint64_t kRows = 1024;
constexpr std::uint64_t kSmRowSectors = 1000 * 4 / 32;
constexpr std::uint64_t kLnCols = 768, kLnRowSectors = kLnCols * 4 / 32, kLnRowRequests = kLnCols / 32;
}  // namespace

TEST_CASE("softmax backward versions: odd shapes against the reference") {
  for (const char* name : kSoftmaxBackwards) {
    INFO(name);
    require_clean_pass(run_kernel(name, {{"rows", "37"}, {"cols", "100"}}));
    require_clean_pass(run_kernel(name, {{"rows", "3"}, {"cols", "5"}}));
    require_clean_pass(run_kernel(name, {{"rows", "5"}, {"cols", "1"}}));  // y = 1: dx = 0
    require_clean_pass(run_kernel(name, {{"rows", "70"}, {"cols", "33"}}));
    for (const char* shape : {"37x100", "70x33", "5x1"}) {
      INFO("causal " << shape);
      const std::string s = shape;
      const std::string rows = s.substr(0, s.find('x')), cols = s.substr(s.find('x') + 1);
      require_clean_pass(run_kernel(name, {{"rows", rows}, {"cols", cols}, {"causal", "1"}}));
    }
  }
}

TEST_CASE("causal softmax backward: dx is exactly 0 past the diagonal in every version") {
  for (const char* name : kSoftmaxBackwards) {
    INFO(name);
    const KernelRun r = run_kernel(name, {{"rows", "37"}, {"cols", "100"}, {"causal", "1"}});
    require_clean_pass(r);
    const std::vector<float>& dx = r.outputs.at("dx").data;
    for (int i = 0; i < 37; ++i)
      for (int j = i + 1; j < 100; ++j) CHECK(dx[std::size_t(i) * 100 + j] == 0.0f);
  }
}

TEST_CASE("causal softmax backward reads only the visible columns: about half a square matrix") {
  // Row i reads ceil(min(i + 1, 1000) / 8) sectors of y and of dy (rows start on sectors).
  std::uint64_t visible_sectors = 0;
  for (std::uint64_t i = 0; i < kRows; ++i) visible_sectors += (std::min<std::uint64_t>(i + 1, 1000) + 7) / 8;
  const KernelRun r = run_kernel("softmax_backward_warp_per_row", {{"causal", "1"}});
  require_clean_pass(r);
  CHECK(r.total(Counter::GlobalLdSectors) == 2 * 2 * visible_sectors);  // y and dy, twice
  CHECK(r.total(Counter::GlobalStSectors) == kRows * kSmRowSectors);    // every dx written
  const KernelRun l = run_kernel("softmax_backward_lightseq", {{"causal", "1"}});
  require_clean_pass(l);
  CHECK(l.total(Counter::GlobalLdSectors) == 2 * visible_sectors);  // y and dy, once
}

TEST_CASE("the pass marks an unrolled loop's loads straight-line and a rolled loop's not") {
  // softmax_backward_lightseq's loads are copies of a #pragma unroll loop: each runs once
  // per thread, all in flight together; warp_per_row's loop issues one load per round.
  auto load_sites = [](const KernelRun& r) {
    std::vector<bool> straight;
    for (const auto& s : simt::global_sites_json(r.launches.at(0)))
      if (s.at("op") == "ld") straight.push_back(s.at("straight_line").get<bool>());
    return straight;
  };
  const std::vector<bool> unrolled = load_sites(run_defaults("softmax_backward_lightseq"));
  const std::vector<bool> rolled = load_sites(run_defaults("softmax_backward_warp_per_row"));
  REQUIRE(unrolled.size() == 2);  // y and dy
  CHECK(unrolled[0]);
  CHECK(unrolled[1]);
  REQUIRE(rolled.size() >= 2);
  for (bool s : rolled) CHECK_FALSE(s);
}

TEST_CASE("the pass names each load's loop and whether nvcc batches it") {
  // layernorm_welford reads x in two loops: the Welford loop branches (its IEEE
  // division's slow path), the normalising loop stores y where its next load may read.
  // layernorm_two_pass's mean loop is one branch-free block: nvcc issues 16 loads at once.
  struct Load { unsigned loop; bool batched; double dram; };
  auto loads = [](const KernelRun& r, std::size_t launch = 0) {
    std::vector<Load> out;
    for (const auto& s : simt::global_sites_json(r.launches.at(launch)))
      if (s.at("op") == "ld")
        out.push_back({s.at("loop").get<unsigned>(), s.at("batched").get<bool>(), s.at("dram_read_bytes").get<double>()});
    return out;
  };
  const std::vector<Load> welford = loads(run_defaults("layernorm_welford"));
  REQUIRE(welford.size() >= 2);
  std::set<unsigned> loops;
  for (const Load& l : welford) {
    CHECK(l.loop != 0);
    CHECK_FALSE(l.batched);
    loops.insert(l.loop);
  }
  CHECK(loops.size() == 2);
  // x's first read is the one from DRAM: exactly one loop's site read x's bytes.
  double dram = 0;
  for (const Load& l : welford) dram += l.dram;
  CHECK(dram >= 4.0 * kRows * 768);
  const std::vector<Load> mean = loads(run_defaults("layernorm_two_pass"), 0);
  REQUIRE(mean.size() == 1);
  CHECK(mean[0].loop != 0);
  CHECK(mean[0].batched);
}

TEST_CASE("softmax_backward_lightseq: y and dy read once, from registers after that") {
  const KernelRun& r = run_defaults("softmax_backward_lightseq");
  require_clean_pass(r);
  REQUIRE(r.launches.size() == 1);
  CHECK(r.total(Counter::GlobalLdSectors) == 2 * kRows * kSmRowSectors);
  CHECK(r.total(Counter::GlobalLdRequests) == 2 * kRows * 32);
  CHECK(r.total(Counter::GlobalStSectors) == kRows * kSmRowSectors);
  CHECK(r.total(Counter::SharedLdInst) + r.total(Counter::SharedStInst) == 0);
  CHECK(r.total(Counter::WarpCollectives) == kRows * 5);
  CHECK_THROWS_WITH_AS(run_kernel("softmax_backward_lightseq", {{"rows", "2"}, {"cols", "1025"}}),
                       doctest::Contains("at most 1024 columns"), std::invalid_argument);
}

TEST_CASE("softmax backward: each row of dx sums to 0 (the dot product is subtracted)") {
  for (const char* name : kSoftmaxBackwards) {
    INFO(name);
    const KernelRun r = run_kernel(name, {{"rows", "37"}, {"cols", "100"}});
    require_clean_pass(r);
    const std::vector<float>& dx = r.outputs.at("dx").data;
    for (int i = 0; i < 37; ++i) {
      double sum = 0, size = 0;
      for (int j = 0; j < 100; ++j) sum += dx[std::size_t(i) * 100 + j], size += std::fabs(dx[std::size_t(i) * 100 + j]);
      CHECK(std::fabs(sum) <= 1e-5 * size);
    }
  }
}

TEST_CASE("softmax_backward_naive: 2 launches; the thread-per-row dot loads 32 sectors per request") {
  const KernelRun& r = run_defaults("softmax_backward_naive");
  require_clean_pass(r);
  REQUIRE(r.launches.size() == 2);
  // Dot: 32 warps x 1000 columns x (dy, y), each lane in its own row; each warp stores 32 dots.
  CHECK(r.total(Counter::GlobalLdRequests, 0) == 32 * 1000 * 2);
  CHECK(r.total(Counter::GlobalLdSectors, 0) == 32 * 32 * 1000 * 2);
  CHECK(r.total(Counter::GlobalStSectors, 0) == 32 * 4);
  // dx: y and dy coalesced, plus each warp's one or two row dots; dx written once.
  CHECK(r.total(Counter::GlobalLdSectors, 1) >= 2 * kRows * kSmRowSectors + 32000);
  CHECK(r.total(Counter::GlobalLdSectors, 1) <= 2 * kRows * kSmRowSectors + 2 * 32000);
  CHECK(r.total(Counter::GlobalStSectors, 1) == kRows * kSmRowSectors);
}

TEST_CASE("softmax_backward_warp_per_row: 1 launch, y and dy read twice coalesced, no shared memory, no barrier") {
  const KernelRun& r = run_defaults("softmax_backward_warp_per_row");
  require_clean_pass(r);
  REQUIRE(r.launches.size() == 1);
  CHECK(r.total(Counter::GlobalLdSectors) == 4 * kRows * kSmRowSectors);
  CHECK(r.total(Counter::GlobalLdRequests) == 4 * kRows * 32);
  CHECK(r.total(Counter::GlobalStSectors) == kRows * kSmRowSectors);
  CHECK(r.total(Counter::SharedLdInst) + r.total(Counter::SharedStInst) == 0);
  CHECK(r.total(Counter::WarpBarriers) == 0);
  CHECK(r.total(Counter::WarpCollectives) == kRows * 5);  // the butterfly: 5 shuffles per row
}

TEST_CASE("layernorm backward versions: odd shapes against the reference, dbeta exact") {
  for (const char* name : kLayerNormBackwards) {
    INFO(name);
    require_clean_pass(run_kernel(name, {{"rows", "37"}, {"cols", "100"}}));
    require_clean_pass(run_kernel(name, {{"rows", "3"}, {"cols", "5"}}));
    require_clean_pass(run_kernel(name, {{"rows", "5"}, {"cols", "1"}}));  // variance 0: norm = 0
    require_clean_pass(run_kernel(name, {{"rows", "11"}, {"cols", "131"}}));
    require_clean_pass(run_kernel(name, {{"rows", "21"}, {"cols", "3001"}}));  // fused: norm not cached
  }
}

TEST_CASE("layernorm_backward_fused: more than 4090 columns is refused, naming the limit") {
  CHECK_THROWS_WITH_AS(run_kernel("layernorm_backward_fused", {{"rows", "2"}, {"cols", "4091"}}),
                       doctest::Contains("4090"), std::invalid_argument);
}

TEST_CASE("layernorm_backward_naive: x and dy read three times, the dx pass a sector per lane") {
  const KernelRun& r = run_defaults("layernorm_backward_naive");
  require_clean_pass(r);
  REQUIRE(r.launches.size() == 2);
  // dx: 32 warps; each loads its rows' mean and rstd (4 sectors each), then walks the
  // row twice loading x and dy (32 sectors: a row per lane) and gamma (1: a broadcast).
  CHECK(r.total(Counter::GlobalLdRequests, 0) == 32 * (2 + 2 * kLnCols * 3));
  CHECK(r.total(Counter::GlobalLdSectors, 0) == 32 * (8 + 2 * kLnCols * (32 + 32 + 1)));
  CHECK(r.total(Counter::GlobalStSectors, 0) == 32 * kLnCols * 32);
  // dgamma, dbeta: 24 warps of columns; per row x and dy (4 sectors each), mean and rstd (1 each).
  CHECK(r.total(Counter::GlobalLdRequests, 1) == 24 * kRows * 4);
  CHECK(r.total(Counter::GlobalLdSectors, 1) == 24 * kRows * 10);
  CHECK(r.total(Counter::GlobalStSectors, 1) == 24 * 2 * 4);
}

TEST_CASE("layernorm_backward_fused: x and dy read once, deterministic partials, one barrier per row") {
  const KernelRun& r = run_defaults("layernorm_backward_fused");
  require_clean_pass(r);
  REQUIRE(r.launches.size() == 2);
  constexpr std::uint64_t blocks = kRows / 8;
  // gamma once per block; per row x and dy (96 sectors each) and mean, rstd (one request per warp).
  CHECK(r.total(Counter::GlobalLdSectors, 0) == blocks * kLnRowSectors + kRows * (2 * kLnRowSectors + 4 * 2));
  CHECK(r.total(Counter::GlobalLdRequests, 0) == blocks * kLnRowRequests + kRows * (2 * kLnRowRequests + 4 * 2));
  // dx once, and each block's partial dgamma and dbeta.
  CHECK(r.total(Counter::GlobalStSectors, 0) == kRows * kLnRowSectors + blocks * 2 * kLnRowSectors);
  CHECK(r.total(Counter::WarpBarriers, 0) == kRows * 4);
  CHECK(r.total(Counter::SharedLdConflicts, 0) + r.total(Counter::SharedStConflicts, 0) == 0);
  CHECK(r.total(Counter::GlobalAtomRequests, 0) + r.total(Counter::GlobalRedRequests, 0) == 0);
  // The reduce reads every partial once.
  CHECK(r.total(Counter::GlobalLdSectors, 1) == blocks * 2 * kLnRowSectors);
  // Against naive: x and dy read once instead of three times.
  const KernelRun& naive = run_defaults("layernorm_backward_naive");
  CHECK(r.total(Counter::GlobalLdSectors, 0) + r.total(Counter::GlobalLdSectors, 1) <
        (naive.total(Counter::GlobalLdSectors, 0) + naive.total(Counter::GlobalLdSectors, 1)) / 10);
}

TEST_CASE("layernorm backward versions agree on dbeta bit for bit (exact sums)") {
  const KernelRun a = run_kernel("layernorm_backward_naive", {{"rows", "37"}, {"cols", "100"}});
  const KernelRun b = run_kernel("layernorm_backward_fused", {{"rows", "37"}, {"cols", "100"}});
  CHECK(a.outputs.at("dbeta").data == b.outputs.at("dbeta").data);
}
