// The fused elementwise family (kernels/fused_common.cuh): odd shapes against the
// double references (the dropout mask from a host Philox4x32-10), separate and fused
// versions bit-identical, and the traffic fusing saves, derived by hand for the
// default runs: bias + GELU 512 x 3072 (n = 1,572,864 elements), bias + dropout +
// residual 1024 x 768 (n = 786,432). Each thread moves 4 elements as one float4: a
// warp's access is 512 bytes, 16 sectors, and cols % 128 == 0 keeps a warp's bias in
// one row (16 sectors too).
#include "run_kernel.hpp"

using simt::Counter;

namespace {
constexpr std::uint64_t kGeluN = 512 * 3072, kDropN = 1024 * 768;

std::uint64_t sum_over_launches(const KernelRun& r, Counter c) {
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < r.launches.size(); ++i) total += r.total(c, i);
  return total;
}
}  // namespace

TEST_CASE("bias + GELU: odd shapes against the reference, separate and fused bit-identical") {
  for (const auto& shape : std::vector<std::map<std::string, std::string>>{
           {{"rows", "37"}, {"cols", "100"}}, {{"rows", "3"}, {"cols", "5"}}, {{"rows", "5"}, {"cols", "1"}},
           {{"rows", "7"}, {"cols", "131"}}}) {
    INFO(shape.at("rows") << " x " << shape.at("cols"));
    const KernelRun separate = run_kernel("bias_gelu_separate", shape);
    const KernelRun fused = run_kernel("bias_gelu_fused", shape);
    require_clean_pass(separate);
    require_clean_pass(fused);
    CHECK(separate.outputs.at("y").data == fused.outputs.at("y").data);
  }
}

TEST_CASE("bias_gelu_fused moves x, bias and y once; the separate pair also writes and reads t") {
  const KernelRun& fused = run_defaults("bias_gelu_fused");
  const KernelRun& separate = run_defaults("bias_gelu_separate");
  require_clean_pass(fused);
  require_clean_pass(separate);
  REQUIRE(fused.launches.size() == 1);
  REQUIRE(separate.launches.size() == 2);
  const std::uint64_t pass = kGeluN * 4 / 32, requests = kGeluN / 128;  // one array: sectors, float4 requests
  CHECK(fused.total(Counter::GlobalLdSectors) == 2 * pass);  // x, and each element's bias
  CHECK(fused.total(Counter::GlobalLdRequests) == 2 * requests);
  CHECK(fused.total(Counter::GlobalStSectors) == pass);
  CHECK(fused.total(Counter::GlobalStRequests) == requests);
  CHECK(separate.total(Counter::GlobalLdSectors, 0) == 2 * pass);
  CHECK(separate.total(Counter::GlobalStSectors, 0) == pass);  // t written
  CHECK(separate.total(Counter::GlobalLdSectors, 1) == pass);  // t read back
  CHECK(separate.total(Counter::GlobalStSectors, 1) == pass);
  // The same arithmetic either way; the estimate of DRAM traffic is larger apart.
  CHECK(sum_over_launches(separate, Counter::FAdd) == fused.total(Counter::FAdd));
  CHECK(sum_over_launches(separate, Counter::FMul) == fused.total(Counter::FMul));
  CHECK(separate.total(Counter::DramReadBytes, 0) + separate.total(Counter::DramWriteBytes, 0) +
            separate.total(Counter::DramReadBytes, 1) + separate.total(Counter::DramWriteBytes, 1) >
        fused.total(Counter::DramReadBytes) + fused.total(Counter::DramWriteBytes));
}

TEST_CASE("bias + dropout + residual: odd shapes and probabilities, separate and fused bit-identical") {
  for (const auto& shape : std::vector<std::map<std::string, std::string>>{
           {{"rows", "37"}, {"cols", "100"}}, {{"rows", "3"}, {"cols", "5"}}, {{"rows", "11"}, {"cols", "131"}}}) {
    for (const char* p : {"0", "0.1", "0.5", "0.9"}) {
      std::map<std::string, std::string> given = shape;
      given["p"] = p;
      given["seed"] = "7";
      INFO(shape.at("rows") << " x " << shape.at("cols") << " p " << p);
      const KernelRun separate = run_kernel("bias_dropout_residual_separate", given);
      const KernelRun fused = run_kernel("bias_dropout_residual_fused", given);
      require_clean_pass(separate);
      require_clean_pass(fused);
      CHECK(separate.outputs.at("out").data == fused.outputs.at("out").data);
    }
  }
  CHECK_THROWS_AS(run_kernel("bias_dropout_residual_fused", {{"p", "1"}}), std::invalid_argument);
  CHECK_THROWS_AS(run_kernel("bias_dropout_residual_fused", {{"p", "x"}}), std::invalid_argument);
}

TEST_CASE("bias_dropout_residual_fused: p = 0 keeps everything; p = 0.1 drops a tenth, another seed another mask") {
  const std::map<std::string, std::string> shape = {{"rows", "64"}, {"cols", "768"}};
  const std::size_t n = 64 * 768;
  const std::vector<float> x = simt::kernels::test_values(n, 1), bias = simt::kernels::test_values(768, 2),
                           residual = simt::kernels::test_values(n, 3);
  std::map<std::string, std::string> given = shape;
  given["p"] = "0";
  const KernelRun all = run_kernel("bias_dropout_residual_fused", given);
  require_clean_pass(all);
  for (std::size_t k = 0; k < n; ++k) REQUIRE(all.outputs.at("out").data[k] == residual[k] + (x[k] + bias[k % 768]));

  auto dropped = [&](const std::string& seed, std::vector<bool>* mask) {
    std::map<std::string, std::string> g = shape;
    g["seed"] = seed;
    const KernelRun r = run_kernel("bias_dropout_residual_fused", g);
    require_clean_pass(r);
    std::size_t count = 0, live = 0;
    for (std::size_t k = 0; k < n; ++k) {
      if (x[k] + bias[k % 768] == 0.0f) continue;  // dropped or not, out == residual
      ++live;
      const bool d = r.outputs.at("out").data[k] == residual[k];
      count += d;
      mask->push_back(d);
    }
    return double(count) / double(live);
  };
  std::vector<bool> a, b;
  const double fa = dropped("1234", &a), fb = dropped("99", &b);
  // About 48,800 live elements: one standard deviation of the fraction is 0.0014.
  CHECK(fa == doctest::Approx(0.1).epsilon(0.1));
  CHECK(fb == doctest::Approx(0.1).epsilon(0.1));
  CHECK(a != b);
}

TEST_CASE("bias_dropout_residual_fused reads x, bias, residual once and writes out once; separate moves 2 more of each") {
  const KernelRun& fused = run_defaults("bias_dropout_residual_fused");
  const KernelRun& separate = run_defaults("bias_dropout_residual_separate");
  require_clean_pass(fused);
  require_clean_pass(separate);
  REQUIRE(fused.launches.size() == 1);
  REQUIRE(separate.launches.size() == 3);
  const std::uint64_t pass = kDropN * 4 / 32;
  CHECK(fused.total(Counter::GlobalLdSectors) == 3 * pass);
  CHECK(fused.total(Counter::GlobalStSectors) == pass);
  CHECK(separate.total(Counter::GlobalLdSectors, 0) == 2 * pass);  // x, bias
  CHECK(separate.total(Counter::GlobalLdSectors, 1) == pass);      // t
  CHECK(separate.total(Counter::GlobalLdSectors, 2) == 2 * pass);  // residual, dropped t
  CHECK(sum_over_launches(separate, Counter::GlobalStSectors) == 3 * pass);
  // One Philox draw per 4 elements either way: the same FP work (the uniforms' FMUL and FADD).
  CHECK(sum_over_launches(separate, Counter::FMul) == fused.total(Counter::FMul));
  CHECK(sum_over_launches(separate, Counter::FAdd) == fused.total(Counter::FAdd));
}
