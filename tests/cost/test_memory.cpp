// Training memory: ZeRO's model-state figures and Korthikanti's activation formula.
#include "cost/serve/kv_cache.hpp"
#include "cost/train/memory.hpp"
#include "models/zoo.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

using namespace simt;
using namespace simt::cost;

TEST_CASE("ZeRO paper, Figure 1: 7.5B parameters on 64 GPUs, K = 12") {
  // Rajbhandari et al. 2020 (arXiv:1910.02054), Figure 1: per-device memory of model
  // states for Psi = 7.5B, Nd = 64: baseline 120 GB, P_os 31.4 GB, P_os+g 16.6 GB,
  // P_os+g+p 1.9 GB (GB = 1e9 bytes).
  const double expected[] = {120, 31.4, 16.6, 1.9};
  for (int stage = 0; stage <= 3; ++stage) {
    const auto m = model_state_memory(7.5e9, {.tp = 1, .pp = 1, .dp = 64, .zero_stage = stage}, 16);
    INFO("stage " << stage);
    CHECK(std::round(m.total() / 1e8) / 10 == doctest::Approx(expected[stage]));
  }
}

TEST_CASE("18 bytes/param keeps fp32 gradients (Megatron distributed optimizer: 6 + 12/d)") {
  // Megatron-Core docs, Distributed Optimizer: bf16 params, fp32 grads: 18 bytes per
  // parameter, 6 + 12/d with the optimizer sharded over d data-parallel ranks.
  const auto m = model_state_memory(1e9, {.dp = 8, .zero_stage = 1}, 18);
  CHECK(m.total() / 1e9 == doctest::Approx(6 + 12.0 / 8));
  CHECK_THROWS_AS(state_bytes(17), std::invalid_argument);
}

TEST_CASE("Korthikanti et al. 2022: activation memory per layer") {
  // arXiv:2205.05198, Table 2: sbh(34 + 5as/h) without parallelism; sbh(10 + 24/t +
  // 5as/(ht)) with TP; sbh/t (34 + 5as/h) with TP + SP; 34sbh/t with SP + selective
  // recomputation; 2sbh with full recomputation. For GPT-3 175B (a=96, s=2048,
  // h=12288), 5as/h = 80, and SP + selective saves "5x" against the TP baseline (abstract).
  const auto& m = models::find_model("gpt3-175b");
  const double sbh = 2048.0 * 1 * 12288;
  auto per_layer = [&](int t, bool sp, models::Recompute r) {
    return activation_memory(m, {.seq = 2048, .micro_batch = 1, .tp = t, .sequence_parallel = sp, .recompute = r})
        .per_layer;
  };
  CHECK(per_layer(1, false, models::Recompute::None) == doctest::Approx(sbh * (34 + 80)));
  CHECK(per_layer(8, false, models::Recompute::None) == doctest::Approx(sbh * (10 + 3 + 10)));
  CHECK(per_layer(8, true, models::Recompute::None) == doctest::Approx(sbh * 114 / 8));
  CHECK(per_layer(8, true, models::Recompute::Selective) == doctest::Approx(34 * sbh / 8));
  CHECK(per_layer(1, false, models::Recompute::Full) == doctest::Approx(2 * sbh));
  const double saving = per_layer(8, false, models::Recompute::None) / per_layer(8, true, models::Recompute::Selective);
  CHECK(saving == doctest::Approx(5.4).epsilon(0.01));
  CHECK(activation_memory(m, {.seq = 2048, .micro_batch = 1}).total == doctest::Approx(96 * sbh * 114));
}

TEST_CASE("KV cache per token: MHA, GQA, MLA") {
  // Llama 3 8B: 2 x 32 layers x 8 kv heads x 128 x 2 bytes = 128 KiB per token in bf16.
  CHECK(kv_cache_size(models::find_model("llama3-8b"), 2).bytes_per_token == 128 * 1024);
  // Llama 3 70B: 2 x 80 x 8 x 128 x 2 = 320 KiB.
  CHECK(kv_cache_size(models::find_model("llama3-70b"), 2).bytes_per_token == 320 * 1024);
  // GPT-2 small (MHA): 2 x 12 x 768 x 2 = 36 KiB.
  CHECK(kv_cache_size(models::find_model("gpt2-small"), 2).bytes_per_token == 36864);
  // DeepSeek-V3 (MLA): 61 x (512 + 64) elements; DeepSeek-V2 paper (arXiv:2405.04434),
  // Table 1: MLA caches (d_c + d_h^R) l elements per token.
  CHECK(kv_cache_size(models::find_model("deepseek-v3"), 2).bytes_per_token == 61 * 576 * 2);
}

TEST_CASE("bad memory inputs") {
  CHECK_THROWS_AS(model_state_memory(0, {}, 16), std::invalid_argument);
  CHECK_THROWS_AS(model_state_memory(1e9, {.zero_stage = 4}, 16), std::invalid_argument);
  CHECK_THROWS_AS(model_state_memory(1e9, {.tp = 0}, 16), std::invalid_argument);
  CHECK_THROWS_AS(activation_memory(models::find_model("gpt2-small"), {.seq = 0}), std::invalid_argument);
}

TEST_CASE("activations per architecture: GQA, SwiGLU, no dropout, FlashAttention") {
  // Llama-3 8B (h 4096, 32 heads, 8 KV heads of 128, SwiGLU 14336, no dropout), s 4096, b 1:
  // norm/block inputs 8sbh + Q 2sbh + K,V 1sbh + out 2sbh + SwiGLU 3 x 2 x 3.5sbh = 34sbh
  // with FlashAttention's log-sum-exp on top; the GPT formula sbh(34 + 5as/h) gives 194sbh.
  const auto& m = models::find_model("llama3-8b");
  const double sbh = 4096.0 * 4096;
  ActivationInput in{.seq = 4096, .micro_batch = 1};
  in.flash_attention = true;
  const auto flash = activation_memory(m, in);
  CHECK(flash.per_layer == doctest::Approx(34 * sbh + 4.0 * 32 * 4096));
  in.flash_attention = false;
  const auto standard = activation_memory(m, in);
  CHECK(standard.per_layer == doctest::Approx(34 * sbh + 2.0 * 32 * 4096 * 4096));  // softmax only: no dropout
  // Selective recomputation and FlashAttention both remove the s^2 term.
  in.recompute = models::Recompute::Selective;
  CHECK(activation_memory(m, in).per_layer == doctest::Approx(34 * sbh));
  // MoE: each token's routed copies add up (Mixtral: same attention as Llama-3 8B, top-2 of
  // 8 experts of width 14336): 13sbh + 2 routed inputs 4sbh + 2 x 21sbh + fp32 router logits 4 x 8 B/token.
  const auto& mix = models::find_model("mixtral-8x7b");
  ActivationInput mi{.seq = 4096, .micro_batch = 1};
  mi.flash_attention = true;
  CHECK(activation_memory(mix, mi).per_layer == doctest::Approx((59 + 32.0 / 4096) * sbh + 4.0 * 32 * 4096));
}
