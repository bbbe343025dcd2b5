// Training memory per GPU: model states under mixed-precision Adam, partitioned by
// ZeRO (Rajbhandari et al. 2020) and split by tensor/pipeline parallelism, plus
// activations (Korthikanti et al. 2022).
#pragma once
#include "models/model.hpp"
#include "models/train_flops.hpp"

#include <string>
#include <vector>

namespace simt::cost {

// Bytes per parameter of the model states, by convention:
//  16 (ZeRO paper): fp16/bf16 weights 2 + fp16/bf16 grads 2 + fp32 master, m, v 12;
//  18 (Megatron distributed optimizer docs, "bf16 param, fp32 grads"): grads are fp32, 4.
struct StateBytes {
  double weights = 2, gradients = 2, optimizer = 12;
  double total() const { return weights + gradients + optimizer; }
};
StateBytes state_bytes(int bytes_per_param);  // 16 or 18; throws otherwise

struct ParallelLayout {
  int tp = 1, pp = 1, dp = 1;
  int zero_stage = 0;  // 0: none; 1: optimizer states; 2: + gradients; 3: + weights
};

struct ModelStateMemory {
  double params_per_gpu = 0;  // Psi / (tp pp)
  double weights = 0, gradients = 0, optimizer = 0;
  double total() const { return weights + gradients + optimizer; }
};

// Psi parameters split evenly over tp*pp ranks (embedding and norms included in
// the even split: an approximation), then ZeRO-partitioned over dp.
ModelStateMemory model_state_memory(double params, const ParallelLayout& layout, int bytes_per_param);

struct ActivationInput {
  int64_t seq = 0;         // s
  int64_t micro_batch = 1; // b
  int tp = 1;              // t
  bool sequence_parallel = false;
  models::Recompute recompute = models::Recompute::None;
  // FlashAttention keeps only the output and a log-sum-exp per row, not the s x s
  // scores (Dao et al. 2022); false: the scores, softmax and dropout as in Korthikanti.
  bool flash_attention = false;
};

struct ActivationMemory {
  double per_layer = 0;    // bytes
  double total = 0;        // per GPU: L layers' worth (see .cpp)
  std::string formula;     // the expression used, symbolic
  std::string plugged;     // with the numbers in
  std::string breakdown;   // per-layer tensors, "Q 2sbh ..." (cost/train/activations.cpp)
};

// Every tensor a layer keeps for its backward pass, for this architecture
// (GQA's smaller K and V, SwiGLU's three MLP tensors, MoE's k routed copies, MLA's
// latents, dropout masks only for models trained with dropout); for a GPT layer
// without FlashAttention it is exactly Korthikanti et al. 2022, Table 2
// (16-bit activations, 1-byte dropout masks). See cost/train/activations.cpp.
ActivationMemory activation_memory(const models::ModelConfig& m, const ActivationInput& in);

}  // namespace simt::cost
