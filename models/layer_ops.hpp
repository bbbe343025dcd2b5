// One transformer layer as the operators a GPU runs, each with its FLOPs and the
// HBM bytes it must move. No devices here: cost/train/layer_cost turns these into times.
#pragma once
#include "models/model.hpp"

#include <string>
#include <vector>

namespace simt::models {

enum class Phase { Train, Prefill, Decode };
const char* to_string(Phase p);
Phase parse_phase(const std::string& s);  // throws std::invalid_argument

// Matmuls run on tensor cores; elementwise work (norms, softmax, activations,
// residual adds) runs on the CUDA cores, so cost/ prices them with different peaks.
enum class OpKind { Matmul, Elementwise };

struct Op {
  std::string name;   // e.g. "qkv_proj"
  std::string pass;   // "fwd" or "bwd"
  OpKind kind = OpKind::Matmul;
  double flops = 0;
  double bytes = 0;   // compulsory HBM traffic of this operator alone
  std::string note;   // how it was counted, in one line
};

struct LayerShape {
  Phase phase = Phase::Prefill;
  int64_t batch = 1;
  // Train/prefill: tokens per sequence. Decode: tokens already in the KV cache;
  // each sequence then processes one new token against them.
  int64_t seq = 1;
  bool fused = false;          // FlashAttention, fused norms/softmax, GEMM epilogues
  bool causal_halving = false; // count only the unmasked half of QK^T and attn*V
  int bytes_per_element = 2;   // activations (and weights and KV unless given below; bf16 = 2)
  double weight_bytes = 0;     // per weight element (int4 with scales: 0.53); 0 = bytes_per_element
  double kv_bytes = 0;         // per K/V element read by attention (fp8 KV: 1); 0 = bytes_per_element
  int layer_index = -1;        // -1: the first MoE layer for MoE models, else layer 0
};

// Forward operators for inference phases; forward then backward rows for Train.
std::vector<Op> layer_ops(const ModelConfig& m, const LayerShape& shape);

// Effective layer index for a shape (resolves -1), and whether it is a MoE layer.
int resolve_layer_index(const ModelConfig& m, const LayerShape& shape);

}  // namespace simt::models
