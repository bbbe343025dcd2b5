#include "models/train_flops.hpp"

#include "models/params.hpp"

#include <fmt/core.h>

#include <stdexcept>

namespace simt::models {

const char* to_string(Recompute r) {
  switch (r) {
    case Recompute::None: return "none";
    case Recompute::Selective: return "selective";
    case Recompute::Full: return "full";
  }
  return "?";
}

Recompute parse_recompute(const std::string& s) {
  if (s == "none") return Recompute::None;
  if (s == "selective") return Recompute::Selective;
  if (s == "full") return Recompute::Full;
  throw std::invalid_argument("unknown recomputation '" + s + "' (none, selective or full)");
}

TrainFlops train_flops(const ModelConfig& m, const TrainFlopsInput& in) {
  if (in.tokens <= 0) throw std::invalid_argument(fmt::format("tokens must be positive, got {}", in.tokens));
  if (in.seq <= 0) throw std::invalid_argument(fmt::format("sequence length must be positive, got {}", in.seq));
  TrainFlops f;
  const double D = in.tokens, s = double(in.seq), L = m.layers;
  f.n_params = double(count_params(m).active_compute);
  f.six_nd = 6 * f.n_params * D;
  // Per token and layer the forward pass does 2 s H d_qk (QK^T) + 2 s H d_v (PV);
  // training is three times the forward pass.
  const double attn_fwd_per_token = 2 * s * m.heads * double(m.qk_head_dim() + m.v_head_dim()) * L *
                                    (in.causal_halving ? 0.5 : 1.0);
  f.attention = 3 * attn_fwd_per_token * D;
  f.model_flops = f.six_nd + f.attention;
  f.per_token_model = f.model_flops / D;

  // Full recomputation reruns each layer's forward pass (not the LM head);
  // selective (Korthikanti et al. 2022) reruns only QK^T, softmax and PV.
  const double lm_head_fwd = 2.0 * m.vocab * m.d_model * D;
  const double model_fwd = 2 * f.n_params * D + attn_fwd_per_token * D;
  if (in.recompute == Recompute::Full) f.recompute_extra = model_fwd - lm_head_fwd;
  if (in.recompute == Recompute::Selective) f.recompute_extra = attn_fwd_per_token * D;
  f.hardware_flops = f.model_flops + f.recompute_extra;

  const double h = m.d_model, V = m.vocab;
  f.megatron_72 = 72 * L * h * h * (1 + s / (6 * h) + V / (12 * L * h)) * D;
  f.megatron_96 = 96 * L * h * h * (1 + s / (6 * h) + V / (16 * L * h)) * D;
  return f;
}

}  // namespace simt::models
