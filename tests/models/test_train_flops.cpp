// Training FLOPs: 6ND, the attention term and Megatron's formula agree where they should.
#include "models/params.hpp"
#include "models/train_flops.hpp"
#include "models/zoo.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

using namespace simt::models;

TEST_CASE("6ND plus the attention term tracks Megatron's 72-coefficient formula for GPT models") {
  // Narayanan et al. 2021 (arXiv:2104.04473), Eq. 3 without recomputation:
  // 72 B s l h^2 (1 + s/(6h) + V/(12 l h)) per iteration. For a GPT layer
  // (12h^2 weights, non-causal attention) it equals 6N + 12 l s h per token up to
  // biases and norms, whatever s is.
  for (const char* name : {"gpt3-175b", "gpt2-xl", "gpt3-100b"}) {
    const auto& m = find_model(name);
    for (int64_t s : {int64_t(512), m.context, int64_t(8192)}) {
      const auto f = train_flops(m, {.tokens = 1e9, .seq = s});
      INFO(name << " s=" << s);
      CHECK(f.model_flops == doctest::Approx(f.megatron_72).epsilon(0.002));
    }
  }
}

TEST_CASE("for long sequences 6ND alone underestimates; for short ones they agree") {
  const auto& m = find_model("gpt3-175b");
  // s << 6h: the attention term s/(6h) is 2048/73728 = 2.8% of the layer FLOPs.
  const auto f = train_flops(m, {.tokens = 300e9, .seq = 2048});
  CHECK(f.six_nd == doctest::Approx(f.megatron_72).epsilon(0.03));
  CHECK(f.attention / f.six_nd == doctest::Approx(2048.0 / (6 * 12288)).epsilon(0.01));
  // s = 32k: the term is 44% and 6ND is far off.
  const auto g = train_flops(m, {.tokens = 300e9, .seq = 32768});
  CHECK(g.six_nd < 0.75 * g.megatron_72);
}

TEST_CASE("full recomputation is Megatron's 96-coefficient formula") {
  const auto& m = find_model("gpt3-175b");
  const auto f = train_flops(m, {.tokens = 300e9, .seq = 2048, .recompute = Recompute::Full});
  CHECK(f.hardware_flops == doctest::Approx(f.megatron_96).epsilon(0.002));
  // Narayanan et al. 2021, Sec. 5.1: "approximately 8TP" FLOPs with recomputation.
  CHECK(f.hardware_flops == doctest::Approx(8 * 174.6e9 * 300e9).epsilon(0.03));
}

TEST_CASE("causal halving and selective recomputation") {
  const auto& m = find_model("llama3-8b");
  const auto full = train_flops(m, {.tokens = 1e12, .seq = 8192});
  const auto half = train_flops(m, {.tokens = 1e12, .seq = 8192, .causal_halving = true});
  CHECK(half.attention == doctest::Approx(full.attention / 2));
  const auto sel = train_flops(m, {.tokens = 1e12, .seq = 8192, .recompute = Recompute::Selective});
  CHECK(sel.recompute_extra == doctest::Approx(full.attention / 3));
}

TEST_CASE("Llama 3 405B: 3.8e25 training FLOPs") {
  // Llama Team 2024 (arXiv:2407.21783), Sec. 3.2.1: "405B parameters on 15.6T tokens"
  // using "3.8 x 10^25 FLOPs" (6ND).
  const auto f = train_flops(find_model("llama3-405b"), {.tokens = 15.6e12, .seq = 8192});
  CHECK(f.six_nd / 1e25 == doctest::Approx(3.8).epsilon(0.01));
}

TEST_CASE("bad input") {
  const auto& m = find_model("gpt2-small");
  CHECK_THROWS_AS(train_flops(m, {.tokens = 0, .seq = 1024}), std::invalid_argument);
  CHECK_THROWS_AS(train_flops(m, {.tokens = 1e9, .seq = -1}), std::invalid_argument);
  CHECK_THROWS_AS(parse_recompute("sometimes"), std::invalid_argument);
}
