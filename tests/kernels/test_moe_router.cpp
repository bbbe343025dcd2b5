// The MoE router family (kernels/moe_router_common.cuh): every version against the
// reference at odd shapes (ties between experts, E not a power of two, k = E, one
// token), the three versions' outputs equal bit for bit, and the counter facts the
// headers claim.
#include "run_kernel.hpp"

using simt::Counter;

namespace {
const char* const kRouters[] = {"moe_router_atomic", "moe_router_block_scan", "moe_router_cub"};

std::uint64_t sum_over_launches(const KernelRun& r, Counter c) {
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < r.launches.size(); ++i) total += r.total(c, i);
  return total;
}
}  // namespace

TEST_CASE("moe routers: odd shapes against the reference, and equal to each other bit for bit") {
  const std::vector<std::map<std::string, std::string>> shapes = {
      {{"tokens", "77"}, {"experts", "5"}, {"top-k", "3"}},
      {{"tokens", "1000"}, {"experts", "256"}, {"top-k", "8"}},  // E = kMaxExperts, 8 bits of key
      {{"tokens", "300"}, {"experts", "3"}, {"top-k", "3"}},     // every expert chosen by every token
      {{"tokens", "1"}, {"experts", "1"}, {"top-k", "1"}},
      {{"tokens", "600"}, {"experts", "33"}, {"top-k", "1"}},    // tiles straddle warps and blocks
  };
  for (const auto& shape : shapes) {
    INFO("tokens " << shape.at("tokens") << " experts " << shape.at("experts") << " top-k " << shape.at("top-k"));
    std::vector<KernelRun> runs;
    for (const char* name : kRouters) {
      INFO(name);
      runs.push_back(run_kernel(name, shape));
      require_clean_pass(runs.back());
    }
    for (std::size_t v = 1; v < runs.size(); ++v)
      for (const char* buffer : {"expert", "gate", "order", "offsets"})
        CHECK(runs[v].outputs.at(buffer).data == runs[0].outputs.at(buffer).data);
  }
}

TEST_CASE("moe_router_atomic: one global atomic per choice, k requests per warp of tokens; the others none") {
  const KernelRun& atomic = run_defaults("moe_router_atomic");  // 4096 tokens, 16 experts, top-2
  require_clean_pass(atomic);
  REQUIRE(atomic.launches.size() == 3);
  // The claimed slot is used (written to `slot`), so these are ATOMs, not REDs: 128 warps x 2.
  CHECK(atomic.total(Counter::GlobalAtomRequests, 0) == 128 * 2);
  CHECK(atomic.total(Counter::GlobalRedRequests, 0) == 0);
  const KernelRun& block_scan = run_defaults("moe_router_block_scan");
  require_clean_pass(block_scan);
  CHECK(sum_over_launches(block_scan, Counter::GlobalAtomRequests) == 0);
  CHECK(sum_over_launches(block_scan, Counter::GlobalRedRequests) == 0);
}

TEST_CASE("moe_router_block_scan: 4 launches, the scatter's ranks from one match per warp") {
  const KernelRun& r = run_defaults("moe_router_block_scan");
  require_clean_pass(r);
  REQUIRE(r.launches.size() == 4);
  // 8192 choices in 32 tiles of 256: the histogram reads each expert id once
  // (8192 ints = 1024 sectors) and writes 16 experts x 32 tiles counts.
  CHECK(r.total(Counter::GlobalLdSectors, 1) == 8192 * 4 / 32);
  CHECK(r.total(Counter::GlobalStRequests, 1) > 0);
  // The scatter: one __match_any_sync and one __ballot_sync per warp (256 warps).
  CHECK(r.total(Counter::WarpCollectives, 3) == 2 * 256);
}
