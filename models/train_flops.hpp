// Training FLOPs of a whole model, three ways, so they can be compared:
//  - 6ND: 2 FLOPs per parameter per token forward, twice that backward;
//  - 6ND plus the attention-score term (PaLM's MFU definition, Chowdhery et al. 2022, App. B);
//  - Megatron's per-iteration formula (Narayanan et al. 2021, Sec. 5.1, Eq. 3), which
//    assumes a GPT layer (MHA, 4h GELU MLP) and counts the LM head.
#pragma once
#include "models/model.hpp"

#include <string>

namespace simt::models {

enum class Recompute { None, Selective, Full };
const char* to_string(Recompute r);
Recompute parse_recompute(const std::string& s);  // throws std::invalid_argument

struct TrainFlopsInput {
  double tokens = 0;            // D
  int64_t seq = 0;              // s (sequence length of a training sample)
  bool causal_halving = false;  // count half of QK^T and attn*V
  Recompute recompute = Recompute::None;
};

struct TrainFlops {
  double n_params = 0;           // N: active matmul parameters (ParamCount::active_compute)
  double six_nd = 0;             // 6 N D
  double attention = 0;          // 6 L s H (d_qk + d_v) D  (12 L s d D for MHA), halved if causal
  double model_flops = 0;        // six_nd + attention: the MFU numerator
  double recompute_extra = 0;    // forward work redone in the backward pass
  double hardware_flops = 0;     // model_flops + recompute_extra: the HFU numerator
  double megatron_72 = 0;        // 72 l h^2 (1 + s/(6h) + V/(12 l h)) per token, times D
  double megatron_96 = 0;        // 96 l h^2 (1 + s/(6h) + V/(16 l h)) per token, times D
  double per_token_model = 0;    // model_flops / D
};

TrainFlops train_flops(const ModelConfig& m, const TrainFlopsInput& in);

}  // namespace simt::models
