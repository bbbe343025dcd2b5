// Counting conventions (docs/cost-model-llm.md, "Layer decomposition"):
//  - a matmul X[M,K] * W[K,N] does 2MKN FLOPs and moves X, W and Y once;
//    its backward (dX = dY W^T, dW = X^T dY) does 4MKN and moves dY, W, X, dX, dW;
//  - elementwise operators count the FLOPs per element below; unfused they take
//    one HBM pass per step, fused one read and one write; their backward is taken
//    as the same FLOPs, reading x and dy and writing dx;
//  - bytes are compulsory traffic (no cache reuse across operators, perfect reuse
//    inside one): a lower bound on what a real kernel moves.
#include "models/layer_ops.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <stdexcept>

namespace simt::models {

namespace {

// FLOPs per element of the elementwise steps (one count per add/mul/exp/...).
constexpr double kRmsNormFlops = 4;    // square, sum, scale by rsqrt, gamma
constexpr double kLayerNormFlops = 7;  // mean sum, subtract, square, var sum, scale, gamma, beta
constexpr double kSoftmaxFlops = 5;    // max, subtract, exp, sum, divide
constexpr double kGeluFlops = 8;       // tanh approximation
constexpr double kSwigluFlops = 5;     // sigmoid (exp, add, divide), times x, times up
constexpr double kRopeFlops = 3;       // x1*cos - x2*sin per output element
// FlashAttention-2's backward does 5 matmuls to the forward's 2 (Dao 2023, Sec. 3.2).
constexpr double kFlashBackwardRatio = 2.5;

struct Builder {
  const ModelConfig& m;
  LayerShape s;
  double e;            // bytes per activation element
  double ew;           // bytes per weight element
  double ekv;          // bytes per K/V element
  std::vector<Op> ops;

  // X[M,K] * W[K,N] with `weight_elems` weight elements read (all of K*N for a
  // dense layer; only the touched experts for MoE).
  void matmul(const std::string& name, double M, double K, double N, double weight_elems,
              const std::string& note) {
    Op f{name, "fwd", OpKind::Matmul, 2 * M * K * N, e * (M * K + M * N) + ew * weight_elems, note};
    Op b{name, "bwd", OpKind::Matmul, 4 * M * K * N, e * (M * N + M * K + M * K) + ew * 2 * weight_elems,
         "dX = dY W^T, dW = X^T dY"};
    push(f, b);
  }
  void matmul(const std::string& name, double M, double K, double N, const std::string& note) {
    matmul(name, M, K, N, K * N, note);
  }

  // Elementwise over n elements: `reads` input passes, one write.
  void elementwise(const std::string& name, double n, double flops_per_elem, double reads,
                   double writes, const std::string& note) {
    Op f{name, "fwd", OpKind::Elementwise, flops_per_elem * n, e * n * (reads + writes), note};
    // A step fused into a matmul epilogue (no traffic forward) is fused backward too.
    const double bwd_bytes = reads + writes > 0 ? e * n * 3 : 0;
    Op b{name, "bwd", OpKind::Elementwise, flops_per_elem * n, bwd_bytes, "read x, dy; write dx"};
    push(f, b);
  }

  void push(Op f, Op b) {
    ops.push_back(std::move(f));
    if (s.phase == Phase::Train) backward.push_back(std::move(b));
  }
  std::vector<Op> backward;  // emitted in reverse order after the forward pass
};

double tokens(const LayerShape& s) { return double(s.batch) * (s.phase == Phase::Decode ? 1 : s.seq); }
double query_len(const LayerShape& s) { return s.phase == Phase::Decode ? 1 : double(s.seq); }
// Keys the queries attend to: the sequence itself, or the cache plus the new token.
double key_len(const LayerShape& s) { return s.phase == Phase::Decode ? double(s.seq) + 1 : double(s.seq); }
double causal_factor(const LayerShape& s) {
  return s.causal_halving && s.phase != Phase::Decode ? 0.5 : 1.0;
}

void add_norm(Builder& b, const std::string& name, double width) {
  const bool rms = b.m.norm == Norm::RMSNorm;
  const double n = tokens(b.s) * width;
  // Unfused: a statistics pass (two for LayerNorm: mean, then variance) before the
  // normalising pass; fused: one read, one write.
  const double reads = b.s.fused ? 1 : (rms ? 2 : 3);
  b.elementwise(name, n, rms ? kRmsNormFlops : kLayerNormFlops, reads, 1,
                b.s.fused ? "fused: one read, one write" : fmt::format("unfused: {} reads, one write", reads));
}

void add_residual(Builder& b, const std::string& name) {
  const double n = tokens(b.s) * b.m.d_model;
  if (b.s.fused)  // in the projection's epilogue: only the residual stream is read
    b.elementwise(name, n, 1, 1, 0, "fused into the projection epilogue: reads the residual");
  else
    b.elementwise(name, n, 1, 2, 1, "unfused: read both, write the sum");
}

// Scores, softmax and weighted sum for `heads` query heads attending over keys of
// width dk and values of width dv; k_elems/v_elems are the K and V bytes read
// (per element) so GQA sharing and MLA latents are counted once.
void add_attention_core(Builder& b, double heads, double dk, double dv, double k_elems, double v_elems,
                        bool kv_shared_read) {
  const LayerShape& s = b.s;
  const double B = double(s.batch), sq = query_len(s), skv = key_len(s), cf = causal_factor(s);
  const double q_elems = B * heads * sq * dk, o_elems = B * heads * sq * dv;
  const double score_elems = B * heads * sq * skv;
  const double qk_flops = cf * 2 * score_elems * dk, av_flops = cf * 2 * score_elems * dv;
  const std::string half = cf < 1 ? " (causal: half counted)" : "";
  if (s.fused) {
    const double kv_read = kv_shared_read ? k_elems : k_elems + v_elems;
    Op f{"flash_attention", "fwd", OpKind::Matmul, qk_flops + av_flops + cf * kSoftmaxFlops * score_elems,
         b.e * (q_elems + o_elems) + b.ekv * kv_read, "QK^T, softmax, PV in one kernel; S, P never reach HBM" + half};
    Op bw{"flash_attention", "bwd", OpKind::Matmul, kFlashBackwardRatio * (qk_flops + av_flops),
          b.e * (2 * q_elems + 2 * o_elems) + b.ekv * 2 * kv_read,
          "recomputes S, P; reads Q K V O dO, writes dQ dK dV"};
    b.push(f, bw);
    return;
  }
  Op f1{"qk_scores", "fwd", OpKind::Matmul, qk_flops, b.e * (q_elems + score_elems) + b.ekv * k_elems,
        "S = Q K^T written to HBM" + half};
  Op b1{"qk_scores", "bwd", OpKind::Matmul, 2 * qk_flops, b.e * (score_elems + q_elems + k_elems + q_elems + k_elems),
        "dQ = dS K, dK = dS^T Q"};
  b.push(f1, b1);
  b.elementwise("softmax", score_elems, cf * kSoftmaxFlops, 3, 1, "unfused: max, sum, normalise passes");
  Op f2{"attn_v", "fwd", OpKind::Matmul, av_flops, b.e * (score_elems + o_elems) + b.ekv * v_elems, "O = P V" + half};
  Op b2{"attn_v", "bwd", OpKind::Matmul, 2 * av_flops, b.e * (o_elems + score_elems + v_elems + score_elems + v_elems),
        "dP = dO V^T, dV = P^T dO"};
  b.push(f2, b2);
}

void add_standard_attention(Builder& b) {
  const ModelConfig& m = b.m;
  const double T = tokens(b.s), d = m.d_model, H = m.heads, Hkv = m.kv_heads, dh = m.d_head;
  b.matmul("qkv_proj", T, d, (H + 2 * Hkv) * dh,
           fmt::format("{} heads + 2 x {} kv heads of {}{}", H, Hkv, dh, b.s.phase == Phase::Decode ? "; K, V appended to the cache" : ""));
  if (m.positions == Positions::Rotary)
    b.elementwise("rope", T * (H + Hkv) * dh, kRopeFlops, b.s.fused ? 0 : 1, b.s.fused ? 0 : 1,
                  b.s.fused ? "fused into the qkv epilogue" : "rotate q and k");
  const double kv = double(b.s.batch) * key_len(b.s) * Hkv * dh;
  add_attention_core(b, H, dh, dh, kv, kv, false);
  b.matmul("o_proj", T, H * dh, d, "attention output projection");
}

// MLA (DeepSeek-V2/V3). Train/prefill up-project the latent to per-head keys and
// values; decode keeps attention in the latent space ("weight absorption"), so it
// reads only the cached latent and RoPE key.
void add_mla_attention(Builder& b) {
  const ModelConfig& m = b.m;
  const Mla& a = m.mla;
  const double T = tokens(b.s), d = m.d_model, H = m.heads;
  const double dqk = double(m.qk_head_dim()), dv = a.v_head_dim, lora = a.kv_lora_rank, rope = a.qk_rope_dim;
  if (a.q_lora_rank > 0) {
    b.matmul("q_down", T, d, a.q_lora_rank, "W_DQ: d -> q latent");
    add_norm(b, "q_norm", a.q_lora_rank);
    b.matmul("q_up", T, a.q_lora_rank, H * dqk, "W_UQ: q latent -> heads x (nope + rope)");
  } else {
    b.matmul("q_proj", T, d, H * dqk, "queries, heads x (nope + rope)");
  }
  b.matmul("kv_down", T, d, lora + rope, "W_DKV: d -> cached latent + shared rope key");
  add_norm(b, "kv_norm", lora);
  const double B = double(b.s.batch), skv = key_len(b.s);
  if (b.s.phase == Phase::Decode) {
    b.matmul("q_absorb", T * H, a.qk_nope_dim, lora, H * a.qk_nope_dim * lora, "q_nope W_UK: query into latent space");
    const double latent = B * skv * (lora + rope);
    add_attention_core(b, H, lora + rope, lora, latent, latent, true);
    b.matmul("v_absorb", T * H, lora, dv, H * lora * dv, "latent output through W_UV");
  } else {
    b.matmul("kv_up", B * skv, lora, H * (a.qk_nope_dim + dv), "W_UK, W_UV: latent -> per-head k_nope, v");
    const double k = B * skv * H * dqk, v = B * skv * H * dv;
    add_attention_core(b, H, dqk, dv, k, v, false);
  }
  b.matmul("o_proj", T, H * dv, d, "attention output projection");
}

// A dense MLP of `width` over M token-rows reading `weight_scale` copies of its
// weights (1 for dense; the number of touched experts for routed experts).
void add_mlp(Builder& b, const std::string& prefix, double M, double width, double weight_scale,
             const std::string& note) {
  const double d = b.m.d_model;
  const bool swiglu = b.m.mlp == MlpKind::SwiGLU;
  const double w = d * width * weight_scale;
  if (swiglu) b.matmul(prefix + "gate", M, d, width, w, note);
  b.matmul(prefix + "up", M, d, width, w, note);
  const double n = M * width;
  const std::string act = prefix + (swiglu ? "silu_mul" : "gelu");
  if (b.s.fused)
    b.elementwise(act, n, swiglu ? kSwigluFlops : kGeluFlops, 0, 0, "fused into the up-projection epilogue");
  else
    b.elementwise(act, n, swiglu ? kSwigluFlops : kGeluFlops, swiglu ? 2 : 1, 1, "separate kernel");
  b.matmul(prefix + "down", M, width, d, w, note);
}

void add_moe(Builder& b) {
  const ModelConfig& m = b.m;
  const Moe& moe = m.moe;
  const double T = tokens(b.s), d = m.d_model, E = moe.routed_experts, k = moe.active_experts;
  b.matmul("router", T, d, E, "token-to-expert scores");
  b.elementwise("router_topk", T * E, kSoftmaxFlops, 1, 1, fmt::format("softmax/sigmoid and top-{} of {}", k, E));
  // With T*k assignments spread evenly, min(E, T*k) experts are touched and each
  // reads its weights once: decode with small batches reads only k experts' worth.
  const double touched = std::min(E, T * k);
  add_mlp(b, "expert_", T * k, moe.expert_ffn, touched,
          fmt::format("{} token-expert pairs; {} of {} experts' weights read", T * k, touched, E));
  if (moe.shared_experts > 0)
    add_mlp(b, "shared_", T, double(moe.shared_experts) * moe.expert_ffn, 1, "always-on shared expert");
}

void validate(const ModelConfig& m, const LayerShape& s) {
  if (s.batch <= 0) throw std::invalid_argument(fmt::format("batch must be positive, got {}", s.batch));
  if (s.seq <= 0) throw std::invalid_argument(fmt::format("sequence length must be positive, got {}", s.seq));
  if (s.bytes_per_element <= 0 || s.weight_bytes < 0 || s.kv_bytes < 0)
    throw std::invalid_argument("bytes per element must be positive");
  if (s.layer_index < -1)
    throw std::invalid_argument(fmt::format("layer index {} is negative: layers are numbered 0 to {} (-1: the default)",
                                            s.layer_index, m.layers - 1));
  if (s.layer_index >= m.layers)
    throw std::invalid_argument(fmt::format("layer index {} out of range: {} has {} layers", s.layer_index, m.name, m.layers));
}

}  // namespace

const char* to_string(Phase p) {
  switch (p) {
    case Phase::Train: return "train";
    case Phase::Prefill: return "prefill";
    case Phase::Decode: return "decode";
  }
  return "?";
}

Phase parse_phase(const std::string& s) {
  if (s == "train") return Phase::Train;
  if (s == "prefill") return Phase::Prefill;
  if (s == "decode") return Phase::Decode;
  throw std::invalid_argument("unknown phase '" + s + "' (train, prefill or decode)");
}

int resolve_layer_index(const ModelConfig& m, const LayerShape& s) {
  if (s.layer_index >= 0) return s.layer_index;
  return m.is_moe() ? m.moe.first_dense_layers : 0;
}

std::vector<Op> layer_ops(const ModelConfig& m, const LayerShape& shape) {
  validate(m, shape);
  const double e = shape.bytes_per_element;
  Builder b{m, shape, e, shape.weight_bytes > 0 ? shape.weight_bytes : e, shape.kv_bytes > 0 ? shape.kv_bytes : e, {}, {}};
  add_norm(b, "attn_norm", m.d_model);
  if (m.is_mla()) add_mla_attention(b);
  else add_standard_attention(b);
  add_residual(b, "residual_1");
  add_norm(b, "mlp_norm", m.d_model);
  if (m.is_moe_layer(resolve_layer_index(m, shape))) add_moe(b);
  else add_mlp(b, "mlp_", tokens(shape), m.ffn, 1, "dense MLP");
  add_residual(b, "residual_2");
  // Backward runs the layer in reverse.
  b.ops.insert(b.ops.end(), b.backward.rbegin(), b.backward.rend());
  return b.ops;
}

}  // namespace simt::models
