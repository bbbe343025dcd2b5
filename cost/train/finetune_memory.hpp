// Fine-tuning memory on one GPU (lecture 23): full fine-tuning vs LoRA vs QLoRA.
// Every component is listed with its bytes per element so the lecture's round
// figures can be traced to a stated accounting (docs/cost-model-llm.md,
// "Fine-tuning memory").
#pragma once
#include "models/model.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace simt::cost {

enum class FinetuneMethod { Full, Lora, Qlora };
FinetuneMethod parse_finetune_method(const std::string& s);  // full, lora, qlora
const char* to_string(FinetuneMethod m);

// How the trainable parameters' states are kept:
//  Mixed: bf16 weights 2 + bf16 gradients 2 + fp32 master, Adam m, v 12 = 16 B/param
//         (Rajbhandari et al. 2020, sec. 3.1: the standard mixed-precision figure);
//  Bf16:  bf16 weights 2 + bf16 gradients 2 + bf16 Adam m, v 4 = 8 B/param (pure-bf16
//         training, no fp32 master copy: torchtune's single-device recipes).
enum class StateConvention { Mixed, Bf16 };
StateConvention parse_state_convention(const std::string& s);  // mixed, bf16
double state_bytes_per_param(StateConvention c);

struct FinetuneInput {
  const models::ModelConfig* model = nullptr;
  FinetuneMethod method = FinetuneMethod::Full;
  StateConvention states = StateConvention::Bf16;
  int64_t seq = 2048, micro_batch = 1;
  int lora_rank = 16;
  bool lora_all_linear = true;      // q k v o gate up down; false: q k v o only
  bool checkpointing = false;       // keep only each layer's input (QLoRA paper: on)
};

struct FinetuneItem {
  std::string what;
  double bytes = 0;
  std::string how;  // "8.03e9 params x 2 B (bf16)"
};

struct FinetuneMemory {
  FinetuneInput in;
  double trainable_params = 0;
  std::vector<FinetuneItem> items;
  double total = 0;
};

// Throws std::invalid_argument for impossible inputs (rank < 1, seq < 1, MLA with LoRA).
FinetuneMemory finetune_memory(const FinetuneInput& in);

// NF4 with double quantization (Dettmers et al. 2023, arXiv:2305.14314, sec. 3):
// 4 bits + an 8-bit absmax per 64 weights + an fp32 second-level constant per
// 256 blocks = 4.127 bits = 0.516 B per weight.
double nf4_double_quant_bytes();

std::string to_text(const FinetuneMemory& f);
nlohmann::json to_json(const FinetuneMemory& f);

}  // namespace simt::cost
