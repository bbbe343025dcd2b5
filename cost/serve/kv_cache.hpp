// KV-cache size per token: what each attention variant keeps for every past token.
#pragma once
#include "models/model.hpp"

#include <string>

namespace simt::cost {

struct KvCacheSize {
  double bytes_per_token = 0;  // all layers
  double elements_per_token_per_layer = 0;
  std::string formula;         // symbolic, for --explain
};

// MHA/GQA/MQA: 2 (K and V) x kv_heads x d_head per layer.
// MLA: kv_lora_rank + qk_rope_dim per layer (the latent and the shared RoPE key).
KvCacheSize kv_cache_size(const models::ModelConfig& m, double bytes_per_element);

// Copies of the KV cache across a tensor-parallel group: GQA with fewer KV heads
// than GPUs replicates each head on tp/kv_heads GPUs; MLA's latent is shared by
// all heads, so every GPU keeps all of it (as vLLM serves DeepSeek-V3).
double kv_replication(const models::ModelConfig& m, int tp);

}  // namespace simt::cost
