#include "models/params.hpp"

namespace simt::models {

namespace {
// A norm over width w: RMSNorm has a scale; LayerNorm (GPT) has scale and shift.
int64_t norm_params(const ModelConfig& m, int64_t w) { return m.norm == Norm::LayerNorm ? 2 * w : w; }

int64_t linear(int64_t in, int64_t out, bool bias) { return in * out + (bias ? out : 0); }

int64_t mla_attention_params(const ModelConfig& m) {
  const Mla& a = m.mla;
  const int64_t d = m.d_model, h = m.heads;
  int64_t p = 0;
  if (a.q_lora_rank > 0) {
    p += linear(d, a.q_lora_rank, false) + norm_params(m, a.q_lora_rank);  // W_DQ, q norm
    p += linear(a.q_lora_rank, h * m.qk_head_dim(), false);                 // W_UQ (+rope part)
  } else {
    p += linear(d, h * m.qk_head_dim(), false);
  }
  // W_DKV produces the latent and the shared rotary key together.
  p += linear(d, a.kv_lora_rank + a.qk_rope_dim, false) + norm_params(m, a.kv_lora_rank);
  p += linear(a.kv_lora_rank, h * (a.qk_nope_dim + a.v_head_dim), false);  // W_UK and W_UV
  p += linear(h * a.v_head_dim, d, false);                                  // W_O
  return p;
}
}  // namespace

int64_t attention_params_per_layer(const ModelConfig& m) {
  if (m.is_mla()) return mla_attention_params(m);
  const int64_t d = m.d_model;
  const int64_t qkv = (m.heads + 2 * m.kv_heads) * m.d_head;
  return linear(d, qkv, m.biases) + linear(m.heads * m.d_head, d, m.biases);
}

int64_t dense_mlp_params(const ModelConfig& m, int64_t width) {
  const int64_t d = m.d_model;
  if (m.mlp == MlpKind::SwiGLU)  // gate and up (d -> width), down (width -> d)
    return 2 * linear(d, width, m.biases) + linear(width, d, m.biases);
  return linear(d, width, m.biases) + linear(width, d, m.biases);
}

int64_t norm_params_per_layer(const ModelConfig& m) { return 2 * norm_params(m, m.d_model); }

ParamCount count_params(const ModelConfig& m) {
  ParamCount c;
  c.embedding = m.vocab * m.d_model;
  c.positions = m.positions == Positions::Learned ? m.context * m.d_model : 0;
  c.lm_head = m.tied_embeddings ? 0 : m.vocab * m.d_model;
  c.attention = m.layers * attention_params_per_layer(m);
  c.norms = m.layers * norm_params_per_layer(m) + norm_params(m, m.d_model);

  const int moe_layers = m.moe_layers();
  c.dense_mlp = (m.layers - moe_layers) * dense_mlp_params(m, m.ffn);
  int64_t active_routed = 0;
  if (m.is_moe()) {
    const int64_t expert = dense_mlp_params(m, m.moe.expert_ffn);
    c.routed_experts = int64_t(moe_layers) * m.moe.routed_experts * expert;
    c.shared_experts = int64_t(moe_layers) * m.moe.shared_experts * expert;
    c.routers = int64_t(moe_layers) * (m.moe.routed_experts * m.d_model +
                                       (m.moe.router_bias ? m.moe.routed_experts : 0));
    active_routed = int64_t(moe_layers) * m.moe.active_experts * expert;
  }
  c.total = c.embedding + c.positions + c.lm_head + c.attention + c.dense_mlp +
            c.routed_experts + c.shared_experts + c.routers + c.norms;
  c.active = c.total - c.routed_experts + active_routed;
  // Lookups do no matmul work; a tied table still does the LM-head matmul.
  c.active_compute = c.active - c.positions - (m.tied_embeddings ? 0 : c.embedding);
  return c;
}

}  // namespace simt::models
