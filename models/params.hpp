// Exact parameter counts from the architecture, by component, so a learner can
// see where the parameters of a model live and tests can match published counts.
#pragma once
#include "models/model.hpp"

#include <cstdint>

namespace simt::models {

struct ParamCount {
  // Whole-model sums by component.
  int64_t embedding = 0;       // token embedding table V*d
  int64_t positions = 0;       // learned position table (0 for rotary)
  int64_t lm_head = 0;         // output projection (0 when tied to the embedding)
  int64_t attention = 0;       // all layers: projections, their biases, MLA norms
  int64_t dense_mlp = 0;       // all dense-MLP layers
  int64_t routed_experts = 0;  // all routed experts of all MoE layers
  int64_t shared_experts = 0;
  int64_t routers = 0;
  int64_t norms = 0;           // per-layer norms plus the final norm
  int64_t total = 0;
  // Parameters a token touches: total minus the routed experts it is not sent to.
  // Counts the embedding table (Mixtral's "12.9B active" convention).
  int64_t active = 0;
  // `active` minus lookup-only tables (untied input embedding, learned positions):
  // the parameters that do matmul work per token, so 2*active_compute is the
  // forward FLOPs per token (DeepSeek-V3's "36.6B activated" convention).
  int64_t active_compute = 0;
};

// Per-layer pieces, also used by the layer decomposition and memory models.
int64_t attention_params_per_layer(const ModelConfig& m);
int64_t dense_mlp_params(const ModelConfig& m, int64_t width);  // one MLP of that width
int64_t norm_params_per_layer(const ModelConfig& m);

ParamCount count_params(const ModelConfig& m);

}  // namespace simt::models
