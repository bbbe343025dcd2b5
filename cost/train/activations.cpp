// Activation memory per layer, per architecture: every tensor the backward pass
// needs, counted the way Korthikanti et al. 2022 (arXiv:2205.05198, sec. 4.1)
// count a GPT layer, generalised:
//  - 16-bit activations (2 B), 1-byte dropout masks;
//  - replicated across the TP group (divided by t only with sequence parallelism):
//    the two norm inputs, the attention input, the MLP input, the two dropout masks
//    after the projections (GPT: 4 x 2sbh + 2 x sbh = 10sbh);
//  - split over t: Q, K, V (GQA: K and V have kv_heads heads), the attention
//    output, the MLP's intermediate tensors (GELU: its input and output, 2 x 2sbf;
//    SwiGLU: gate, up and their product, 3 x 2sbf, the fused kernel of Megatron-LM
//    recomputing silu(gate)); MoE: the k routed copies of each token's input and
//    expert tensors, shared experts, fp32 router logits; MLA: the q and kv latents
//    and the up-projected per-head Q, K, V;
//  - the attention core: without FlashAttention the softmax output (2as^2b), and
//    with dropout its mask and output (as^2b + 2as^2b): 5as^2b for GPT. With
//    FlashAttention only the fp32 log-sum-exp per row and head (4abs) (Dao et al.
//    2022, sec. 3.1: S and P are recomputed in backward).
// A GPT layer without FlashAttention gives exactly Table 2: sbh(10 + 24/t + 5as/(ht)).
#include "cost/train/memory.hpp"

#include <fmt/core.h>

#include <stdexcept>

namespace simt::cost {

namespace {

constexpr double kAct = 2;   // bytes per activation element (16-bit training)
constexpr double kMask = 1;  // bytes per dropout-mask element

// GPT-2/3 train with dropout 0.1 (their configs); the Llama, Mixtral and DeepSeek
// configs set attention and hidden dropout to 0. Learned positions mark the former.
bool trains_with_dropout(const models::ModelConfig& m) { return m.positions == models::Positions::Learned; }

struct LayerTensors {
  double replicated = 0;  // bytes, whole layer
  double sharded = 0;
  double core = 0;        // attention scores (or FlashAttention's log-sum-exp)
  std::string breakdown;
};

void add(LayerTensors& t, double& slot, double bytes, const std::string& what, double sbh) {
  slot += bytes;
  t.breakdown += fmt::format("{}{} {:.4g}sbh", t.breakdown.empty() ? "" : ", ", what, bytes / sbh);
}

void attention_tensors(const models::ModelConfig& m, double T, LayerTensors& t, double sbh) {
  const double H = m.heads;
  if (m.is_mla()) {
    if (m.mla.q_lora_rank > 0) add(t, t.sharded, kAct * T * m.mla.q_lora_rank, "q latent", sbh);
    add(t, t.sharded, kAct * T * m.mla.kv_lora_rank, "kv latent", sbh);
    add(t, t.sharded, kAct * T * H * 2 * m.qk_head_dim(), "Q K", sbh);
    add(t, t.sharded, kAct * T * H * m.v_head_dim(), "V", sbh);
  } else {
    add(t, t.sharded, kAct * T * H * m.d_head, "Q", sbh);
    add(t, t.sharded, kAct * T * 2 * m.kv_heads * m.d_head, "K V", sbh);
  }
  add(t, t.sharded, kAct * T * H * m.v_head_dim(), "attention out", sbh);
}

double mlp_tensors_per_width(const models::ModelConfig& m) { return (m.mlp == models::MlpKind::SwiGLU ? 3 : 2) * kAct; }

void mlp_tensors(const models::ModelConfig& m, bool moe_layer, double T, LayerTensors& t, double sbh) {
  const double per_width = mlp_tensors_per_width(m);
  if (!moe_layer) {
    add(t, t.sharded, per_width * T * m.ffn, m.mlp == models::MlpKind::SwiGLU ? "SwiGLU" : "GELU", sbh);
    return;
  }
  const auto& e = m.moe;
  add(t, t.sharded, 4.0 * T * e.routed_experts, "router logits", sbh);
  add(t, t.sharded, kAct * T * e.active_experts * m.d_model, "routed inputs", sbh);
  add(t, t.sharded, per_width * T * e.active_experts * e.expert_ffn, "routed experts", sbh);
  if (e.shared_experts > 0)
    add(t, t.sharded, per_width * T * e.shared_experts * e.expert_ffn, "shared experts", sbh);
}

LayerTensors layer_tensors(const models::ModelConfig& m, const ActivationInput& in, bool moe_layer) {
  const double s = double(in.seq), b = double(in.micro_batch), T = s * b, sbh = T * m.d_model;
  const bool dropout = trains_with_dropout(m);
  LayerTensors t;
  add(t, t.replicated, 4 * kAct * sbh, "norm and block inputs", sbh);
  if (dropout) add(t, t.replicated, 2 * kMask * sbh, "dropout masks", sbh);
  attention_tensors(m, T, t, sbh);
  mlp_tensors(m, moe_layer, T, t, sbh);
  const double a = double(m.heads);
  if (in.flash_attention) {
    add(t, t.core, 4 * a * b * s, "log-sum-exp", sbh);
  } else {
    add(t, t.core, kAct * a * s * s * b, "softmax", sbh);
    if (dropout) add(t, t.core, (kMask + kAct) * a * s * s * b, "attention dropout", sbh);
  }
  return t;
}

double per_layer_bytes(const models::ModelConfig& m, const ActivationInput& in, const LayerTensors& t) {
  const double sp = in.sequence_parallel ? in.tp : 1.0;
  const double sbh = double(in.seq) * double(in.micro_batch) * double(m.d_model);
  switch (in.recompute) {
    case models::Recompute::None: return t.replicated / sp + (t.sharded + t.core) / in.tp;
    case models::Recompute::Selective: return t.replicated / sp + t.sharded / in.tp;
    case models::Recompute::Full: return kAct * sbh / sp;  // each layer's input only
  }
  return 0;
}

std::string symbolic(const models::ModelConfig& m, const ActivationInput& in, const LayerTensors& t, double sbh) {
  if (in.recompute == models::Recompute::Full) return in.sequence_parallel ? "2sbh/t" : "2sbh";
  const std::string rep = fmt::format("{:.4g}{}", t.replicated / sbh, in.sequence_parallel ? "/t" : "");
  std::string o = fmt::format("sbh x ({} + {:.4g}/t)", rep, t.sharded / sbh);
  if (in.recompute == models::Recompute::Selective) return o;
  if (in.flash_attention) return o + " + 4abs/t (FlashAttention log-sum-exp)";
  const double as2b = double(m.heads) * double(in.seq) * double(in.seq) * double(in.micro_batch);
  return o + fmt::format(" + {:.4g}as^2b/t", t.core / as2b);
}

}  // namespace

ActivationMemory activation_memory(const models::ModelConfig& m, const ActivationInput& in) {
  if (in.seq <= 0 || in.micro_batch <= 0 || in.tp < 1)
    throw std::invalid_argument("activation memory needs seq > 0, micro-batch > 0, tp >= 1");
  const double sbh = double(in.seq) * double(in.micro_batch) * double(m.d_model);
  const bool moe = m.is_moe();
  const LayerTensors main = layer_tensors(m, in, moe);
  ActivationMemory r;
  r.per_layer = per_layer_bytes(m, in, main);
  // With 1F1B pipelining the first stage holds p micro-batches of L/p layers:
  // L layers' worth whatever p is (Korthikanti et al. 2022, sec. 4.2.3).
  r.total = r.per_layer * m.moe_layers();
  const int dense_layers = m.layers - m.moe_layers();
  if (dense_layers > 0) r.total += per_layer_bytes(m, in, layer_tensors(m, in, false)) * dense_layers;
  r.formula = symbolic(m, in, main, sbh);
  r.breakdown = main.breakdown;
  r.plugged = fmt::format("s={} b={} h={} a={} t={} L={}: {:.4g} GB per {}layer x {} layers", in.seq, in.micro_batch,
                          m.d_model, m.heads, in.tp, m.layers, r.per_layer / 1e9, moe ? "MoE " : "", m.layers);
  return r;
}

}  // namespace simt::cost
