#include "cost/serve/serve_iteration.hpp"

#include "cost/comm/comm.hpp"
#include "cost/serve/kv_cache.hpp"
#include "cost/train/layout_check.hpp"
#include "cost/train/step_time.hpp"
#include "models/layer_ops.hpp"

#include <algorithm>

namespace simt::cost {

IterationModel::IterationModel(const models::ModelConfig& m, const DeviceSpec& device, const Precisions& p, int tp,
                               const Topology& topology)
    : m_(m), device_(device), p_(p), tp_(tp), topology_(topology) {
  check_layout(&m, tp, tp, 1);
  require_peaks(p, device);
}

// Every operator of the layers except attention itself, over `tokens` rows, summed.
double IterationModel::token_ops_s(int64_t tokens) {
  if (tokens == 0) return 0;
  if (auto it = token_cache_.find(tokens); it != token_cache_.end()) return it->second;
  double t = 0;
  for (int layer = 0; layer < m_.layers; ++layer) {
    const bool moe = m_.is_moe_layer(layer);
    if (layer > 0 && moe == m_.is_moe_layer(layer - 1)) continue;
    const int count = moe ? m_.moe_layers() : m_.layers - m_.moe_layers();
    const models::LayerShape s{.phase = models::Phase::Prefill, .batch = 1, .seq = tokens, .fused = true,
                               .bytes_per_element = int(p_.activations.bytes), .weight_bytes = p_.weights.bytes,
                               .kv_bytes = p_.kv.bytes, .layer_index = layer};
    for (const auto& op : models::layer_ops(m_, s)) {
      if (op.name == "flash_attention") continue;  // priced per request below
      const double share = replicated_under_tp(op.name) ? 1.0 : 1.0 / tp_;
      const std::string key = op.kind == models::OpKind::Matmul ? p_.matmul_peak_key() : elementwise_peak_key(device_);
      t += count * price_op(op.name, "", 1, op.flops * share, op.bytes * share, key, device_, "").time_s;
    }
  }
  if (tp_ > 1) {
    const double S = double(tokens) * m_.d_model * p_.activations.bytes;
    t += 2 * m_.layers * group_all_reduce(S, tp_, device_, topology_).time_s;
  }
  token_cache_[tokens] = t;
  return t;
}

double IterationModel::time_s(const IterationBatch& b) {
  const int64_t tokens = b.prefill_tokens + b.decode_seqs;
  double t = token_ops_s(tokens);
  // Attention: score and value FLOPs per query-key pair; K/V read once per
  // request (decode: the whole cache; prefill chunk: past + chunk), Q and O once.
  const double H = double(m_.heads), dqk = double(m_.qk_head_dim()), dv = double(m_.v_head_dim());
  const double kv_elems = kv_cache_size(m_, 1).elements_per_token_per_layer;
  const std::string key = p_.matmul_peak_key();
  auto attention = [&](double pairs, double kv_rows, double q_rows) {
    if (q_rows == 0) return 0.0;
    const double flops = 2 * H * (dqk + dv) * pairs;
    const double bytes = p_.kv.bytes * kv_elems * kv_rows + p_.activations.bytes * q_rows * H * (dqk + dv);
    return m_.layers * price_op("attention", "", 1, flops / tp_, bytes / tp_, key, device_, "").time_s;
  };
  t += attention(b.prefill_pairs, b.prefill_kv_tokens, double(b.prefill_tokens));
  t += attention(b.decode_kv_tokens, b.decode_kv_tokens, double(b.decode_seqs));
  if (b.logits_rows > 0) {
    const double rows = double(b.logits_rows), V = double(m_.vocab), d = double(m_.d_model);
    const double flops = 2 * rows * d * V, bytes = p_.weights.bytes * V * d + p_.activations.bytes * rows * (d + V);
    t += price_op("lm_head", "", 1, flops / tp_, bytes / tp_, key, device_, "").time_s;
  }
  return t;
}

}  // namespace simt::cost
