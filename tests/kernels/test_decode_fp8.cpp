// decode_fp8_kv (kernels/decode_fp8_kv.cu): odd shapes against the double reference on
// the dequantized cache, bit-for-bit repeatable outputs, and the counter facts derived
// by hand for the default run: 4 sequences of 512, 415, 318 and 478 cached tokens (1723
// in all), 8 query heads, 2 KV heads, dim 64. A K or V row is 64 bytes: 2 warp loads of
// 32 bytes, 1 sector each, where decode_contiguous's fp32 row is 2 loads of 4 sectors.
#include "run_kernel.hpp"

using simt::Counter;

namespace {
constexpr std::uint64_t kTokens = 512 + 415 + 318 + 478, kHeads = 8, kDim = 64, kWarps = 4 * kHeads;
constexpr std::uint64_t kRowRequests = kDim / 32, kRowSectors = kRowRequests * 1;
constexpr std::uint64_t kKvElements = kHeads * kTokens * 2 * kDim;  // K and V elements loaded, over all warps
}  // namespace

TEST_CASE("decode_fp8_kv: odd shapes against the reference on the dequantized cache, repeatable bits") {
  for (const auto& shape : std::vector<std::map<std::string, std::string>>{
           {{"batch", "3"}, {"seq", "37"}, {"heads", "6"}, {"kv_heads", "3"}, {"dim", "32"}},
           {{"batch", "5"}, {"seq", "1"}, {"heads", "4"}, {"kv_heads", "4"}, {"dim", "96"}},
           {{"batch", "2"}, {"seq", "100"}, {"heads", "8"}, {"kv_heads", "1"}, {"dim", "128"}},
           {{"batch", "7"}, {"seq", "23"}, {"heads", "8"}, {"kv_heads", "2"}, {"dim", "64"}}}) {
    INFO("batch " << shape.at("batch") << " seq " << shape.at("seq") << " heads " << shape.at("heads") << "/"
                  << shape.at("kv_heads") << " dim " << shape.at("dim"));
    const KernelRun a = run_kernel("decode_fp8_kv", shape);
    require_clean_pass(a);
    // Fixed sum orders, no atomics: a second run gives the same bits.
    CHECK(run_kernel("decode_fp8_kv", shape).outputs.at("o").data == a.outputs.at("o").data);
  }
  CHECK_THROWS_AS(run_kernel("decode_fp8_kv", {{"dim", "48"}}), std::invalid_argument);
  CHECK_THROWS_AS(run_kernel("decode_fp8_kv", {{"heads", "8"}, {"kv_heads", "3"}}), std::invalid_argument);
}

TEST_CASE("decode_fp8_kv: decode_contiguous's requests, a quarter of its K/V sectors") {
  const KernelRun& r = run_defaults("decode_fp8_kv");
  const KernelRun& fp32 = run_defaults("decode_contiguous");
  require_clean_pass(r);
  REQUIRE(r.launches.size() == 1);
  // 32 warps: q (2 loads of 4 sectors), the length (1), the K and V scales (1 each:
  // every lane reads the same word), then K and V per token.
  CHECK(r.total(Counter::GlobalLdSectors) == kWarps * (8 + 1 + 2) + kHeads * kTokens * 2 * kRowSectors);
  CHECK(r.total(Counter::GlobalLdRequests) == kWarps * (2 + 1 + 2) + kHeads * kTokens * 2 * kRowRequests);
  CHECK(r.total(Counter::GlobalStSectors) == kWarps * 8);
  // Against fp32: the K/V sectors divide by 4 (6 of every row's 8 sectors go), the
  // requests stay; the two scale loads per warp are the only additions.
  CHECK(fp32.total(Counter::GlobalLdSectors) - r.total(Counter::GlobalLdSectors) ==
        kHeads * kTokens * 2 * (4 - 1) * kRowRequests - kWarps * 2);
  CHECK(r.total(Counter::GlobalLdRequests) == fp32.total(Counter::GlobalLdRequests) + kWarps * 2);
  // Each element loaded is widened once: fp8 -> half (F2FP, no FP counter) and half ->
  // float (HADD2.F32, counted as hadd, as __half2float); fp32 has none.
  CHECK(r.total(Counter::HAdd) == kKvElements);
  CHECK(fp32.total(Counter::HAdd) == 0);
  // The dot products are the same FMULs and FADDs per element as fp32's (the score
  // lines are data-independent); the dequantization adds one FMUL per element, on top
  // of the online softmax's data-dependent rescalings (a few hundred either way).
  CHECK(r.total(Counter::FMul) >= kKvElements);
  CHECK(r.total(Counter::WarpBarriers) == 0);
  CHECK(r.total(Counter::SharedLdInst) + r.total(Counter::SharedStInst) == 0);
  // The quantized cache changes the outputs, within the loss the check reports (max
  // |o - o_fp32| 0.0038 at the defaults, against max |o_fp32| 0.16).
  const std::vector<float>&o8 = r.outputs.at("o").data, &o32 = fp32.outputs.at("o").data;
  REQUIRE(o8.size() == o32.size());
  double loss = 0;
  for (std::size_t i = 0; i < o8.size(); ++i) loss = std::max(loss, std::fabs(double(o8[i]) - o32[i]));
  CHECK(loss > 0);
  CHECK(loss < 0.01);
}
