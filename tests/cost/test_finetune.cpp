// Fine-tuning memory: LoRA's parameter count, NF4's bytes, and the lecture's
// full / LoRA / QLoRA figures for LLaMA-8B under one stated accounting.
#include "cost/train/finetune_memory.hpp"
#include "models/params.hpp"
#include "models/zoo.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

using namespace simt;
using namespace simt::cost;

namespace {
FinetuneMemory llama8b(FinetuneMethod method, int64_t seq) {
  return finetune_memory({.model = &models::find_model("llama3-8b"), .method = method, .seq = seq,
                          .checkpointing = method == FinetuneMethod::Qlora});
}
}  // namespace

TEST_CASE("LoRA rank 16 on every linear layer of Llama-3 8B: 41,943,040 trainable parameters") {
  // r (d_in + d_out) per module: q 4096+4096, k and v 4096+1024, o 4096+4096, gate and up
  // 4096+14336, down 14336+4096; x 32 layers. Hugging Face PEFT's print_trainable_parameters()
  // for meta-llama/Meta-Llama-3-8B with these targets prints "trainable params: 41,943,040 ||
  // all params: 8,072,204,288" (= 8,030,261,248 + 41,943,040).
  const auto f = llama8b(FinetuneMethod::Lora, 2048);
  CHECK(f.trainable_params == 41943040);
  CHECK(f.trainable_params + double(models::count_params(models::find_model("llama3-8b")).total) == 8072204288.0);
}

TEST_CASE("NF4 with double quantization: 4.127 bits per weight") {
  // Dettmers et al. 2023 (arXiv:2305.14314), sec. 3: double quantization cuts the constants'
  // overhead from 32/64 = 0.5 to 8/64 + 32/(64 x 256) = 0.127 bits per parameter.
  CHECK(nf4_double_quant_bytes() * 8 == doctest::Approx(4.127).epsilon(0.001));
}

TEST_CASE("the lecture's LLaMA-8B figures: ~80 GB full, ~33 GB LoRA, ~9.2 GB QLoRA") {
  // CMU 11-868 lecture 23 quotes these without inputs. One accounting reproduces all three:
  // bf16 weights, gradients and Adam m, v (8 B/param, no fp32 master copy); FlashAttention;
  // 3072 tokens per step; the logits in bf16 plus an fp32 copy for the loss; gradient
  // checkpointing for QLoRA only (as in the QLoRA paper).
  CHECK(llama8b(FinetuneMethod::Full, 3072).total / 1e9 == doctest::Approx(80).epsilon(0.03));
  CHECK(llama8b(FinetuneMethod::Lora, 3072).total / 1e9 == doctest::Approx(33).epsilon(0.03));
  CHECK(llama8b(FinetuneMethod::Qlora, 3072).total / 1e9 == doctest::Approx(9.2).epsilon(0.06));
  // Beside it the standard mixed-precision figure: 16 B/param of model states alone, 128 GB.
  FinetuneInput mixed{.model = &models::find_model("llama3-8b"), .states = StateConvention::Mixed};
  double states = 0;
  for (const auto& i : finetune_memory(mixed).items)
    if (i.what != "activations" && i.what != "logits") states += i.bytes;
  CHECK(states == doctest::Approx(16.0 * 8030261248));
}

TEST_CASE("fine-tuning inputs are checked") {
  const auto* m = &models::find_model("llama3-8b");
  CHECK_THROWS_AS(finetune_memory({.model = m, .method = FinetuneMethod::Lora, .lora_rank = 0}), std::invalid_argument);
  CHECK_THROWS_AS(finetune_memory({.model = m, .seq = 0}), std::invalid_argument);
  CHECK_THROWS_WITH_AS(
      finetune_memory({.model = &models::find_model("deepseek-v3"), .method = FinetuneMethod::Qlora}),
      doctest::Contains("MLA"), std::invalid_argument);
  CHECK_THROWS_AS(parse_finetune_method("dora"), std::invalid_argument);
}
