// The decode family (kernels/decode_common.cuh): odd shapes against the double
// reference, the three attention versions bit-identical, and the counter facts their
// headers claim, derived by hand for the default run: 4 sequences of 512, 415, 318 and
// 478 cached tokens (1723 in all; 32 + 26 + 20 + 30 = 108 blocks of 16), 8 query
// heads, 2 KV heads, dim 64 (a K or V row: 2 warp loads of 4 sectors).
#include "run_kernel.hpp"

using simt::Counter;

namespace {
const char* const kDecodes[] = {"decode_contiguous", "decode_paged", "decode_gqa"};
constexpr std::uint64_t kTokens = 512 + 415 + 318 + 478, kBlocks = 32 + 26 + 20 + 30, kHeads = 8, kKvHeads = 2;
constexpr std::uint64_t kRowSectors = 64 * 4 / 32, kRowRequests = 64 / 32;
}  // namespace

TEST_CASE("decode versions: odd shapes against the reference, all three bit-identical") {
  for (const auto& shape : std::vector<std::map<std::string, std::string>>{
           {{"batch", "3"}, {"seq", "37"}, {"heads", "6"}, {"kv_heads", "3"}, {"dim", "32"}},
           {{"batch", "5"}, {"seq", "1"}, {"heads", "4"}, {"kv_heads", "4"}, {"dim", "96"}},
           {{"batch", "2"}, {"seq", "100"}, {"heads", "8"}, {"kv_heads", "1"}, {"dim", "128"}}}) {
    INFO("batch " << shape.at("batch") << " seq " << shape.at("seq") << " heads " << shape.at("heads") << "/"
                  << shape.at("kv_heads") << " dim " << shape.at("dim"));
    std::vector<std::vector<float>> outs;
    for (const char* name : kDecodes) {
      INFO(name);
      const KernelRun r = run_kernel(name, shape);
      require_clean_pass(r);
      outs.push_back(r.outputs.at("o").data);
    }
    CHECK(outs[0] == outs[1]);
    CHECK(outs[0] == outs[2]);
  }
  CHECK_THROWS_AS(run_kernel("decode_gqa", {{"heads", "8"}, {"kv_heads", "3"}}), std::invalid_argument);
  CHECK_THROWS_AS(run_kernel("decode_paged", {{"dim", "48"}}), std::invalid_argument);
}

TEST_CASE("decode_contiguous: each query head reads its KV head's rows once, 4 sectors per request") {
  const KernelRun& r = run_defaults("decode_contiguous");
  require_clean_pass(r);
  REQUIRE(r.launches.size() == 1);
  // 32 warps: q (2 loads of 4 sectors), the sequence length (1), then K and V per token.
  CHECK(r.total(Counter::GlobalLdSectors) == 32 * (8 + 1) + kHeads * kTokens * 2 * kRowSectors);
  CHECK(r.total(Counter::GlobalLdRequests) == 32 * (2 + 1) + kHeads * kTokens * 2 * kRowRequests);
  CHECK(r.total(Counter::GlobalStSectors) == 32 * 8);
  CHECK(r.total(Counter::WarpBarriers) == 0);
  CHECK(r.total(Counter::SharedLdInst) + r.total(Counter::SharedStInst) == 0);
}

TEST_CASE("decode_paged: the contiguous version's sectors plus one block-table sector per 16 tokens") {
  const KernelRun& contiguous = run_defaults("decode_contiguous");
  const KernelRun& paged = run_defaults("decode_paged");
  require_clean_pass(paged);
  CHECK(paged.total(Counter::GlobalLdSectors) == contiguous.total(Counter::GlobalLdSectors) + kHeads * kBlocks);
  CHECK(paged.total(Counter::GlobalLdRequests) == contiguous.total(Counter::GlobalLdRequests) + kHeads * kBlocks);
  CHECK(paged.outputs.at("o").data == contiguous.outputs.at("o").data);
}

TEST_CASE("decode_gqa: KV rows read once per group of 4 query heads, a quarter of contiguous's") {
  const KernelRun& contiguous = run_defaults("decode_contiguous");
  const KernelRun& gqa = run_defaults("decode_gqa");
  require_clean_pass(gqa);
  // 8 warps: q of 4 heads (8 loads, 32 sectors), the length, then K and V per token.
  CHECK(gqa.total(Counter::GlobalLdSectors) == 8 * (32 + 1) + kKvHeads * kTokens * 2 * kRowSectors);
  CHECK(gqa.total(Counter::GlobalLdRequests) == 8 * (8 + 1) + kKvHeads * kTokens * 2 * kRowRequests);
  CHECK(gqa.total(Counter::GlobalStSectors) == contiguous.total(Counter::GlobalStSectors));
  CHECK(gqa.outputs.at("o").data == contiguous.outputs.at("o").data);
  // The same arithmetic, a quarter of the warps.
  CHECK(gqa.total(Counter::FAdd) == contiguous.total(Counter::FAdd));
  CHECK(gqa.total(Counter::FMul) == contiguous.total(Counter::FMul));
}

TEST_CASE("rope: odd shapes against the reference; every element of q and k read and written once") {
  require_clean_pass(run_kernel("rope", {{"tokens", "37"}, {"heads", "3"}, {"kv_heads", "1"}, {"dim", "6"}, {"pos0", "1000"}}));
  require_clean_pass(run_kernel("rope", {{"tokens", "5"}, {"heads", "1"}, {"kv_heads", "1"}, {"dim", "2"}}));
  require_clean_pass(run_kernel("rope", {{"tokens", "3"}, {"heads", "5"}, {"kv_heads", "5"}, {"dim", "130"}}));
  CHECK_THROWS_AS(run_kernel("rope", {{"dim", "7"}}), std::invalid_argument);
  // Position 0 is the identity (cos 1, sin 0).
  const KernelRun zero = run_kernel("rope", {{"tokens", "1"}, {"heads", "2"}, {"kv_heads", "1"}, {"dim", "8"}});
  CHECK(zero.outputs.at("q").data == simt::kernels::test_values(16, 1));

  const KernelRun& r = run_defaults("rope");
  require_clean_pass(r);
  REQUIRE(r.launches.size() == 1);
  // 256 tokens x (8 + 2) heads x 32 pairs: 2560 warps, one head each: x[i], x[i + 32], cos, sin.
  const std::uint64_t warps = 256 * 10, pairs = warps * 32;
  CHECK(r.total(Counter::GlobalLdSectors) == warps * 4 * 4);
  CHECK(r.total(Counter::GlobalLdRequests) == warps * 4);
  CHECK(r.total(Counter::GlobalStSectors) == warps * 2 * 4);
  CHECK(r.total(Counter::FMul) == 4 * pairs);
  CHECK(r.total(Counter::FAdd) == 2 * pairs);
}
