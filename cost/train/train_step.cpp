// Conventions: the operators are `simt layer --phase train` (fused with
// FlashAttention unless asked otherwise) for every layer; full recomputation
// runs each layer's forward again, selective only the attention core (Korthikanti
// et al. 2022); the LM head and its backward are counted; each layer does 2
// all-reduces forward and 2 backward (Shoeybi et al. 2019), 2 more when full
// recomputation repeats the forward. With pp stages working on different
// micro-batches, a replica finishes one micro-batch every (sum / pp): the
// bubble (docs/cost-model.md, "Pipeline parallelism") and the data-parallel
// gradient all-reduce are not in it.
#include "cost/train/train_step.hpp"

#include "cost/train/layout_check.hpp"
#include "models/layer_ops.hpp"

#include <fmt/core.h>

#include <stdexcept>

namespace simt::cost {

namespace {

bool attention_core(const std::string& name) {
  return name == "flash_attention" || name == "qk_scores" || name == "softmax" || name == "attn_v";
}

bool recomputed(const models::Op& op, models::Recompute r) {
  if (op.pass != "fwd") return false;
  if (r == models::Recompute::Full) return true;
  return r == models::Recompute::Selective && attention_core(op.name);
}

void add_layers(const TrainStepInput& in, TrainStep& st) {
  const auto& m = *in.model;
  const std::string mm = in.dtype.peak_key;
  for (int layer = 0; layer < m.layers; ++layer) {
    const bool moe = m.is_moe_layer(layer);
    if (layer > 0 && moe == m.is_moe_layer(layer - 1)) continue;
    const int count = moe ? m.moe_layers() : m.layers - m.moe_layers();
    const models::LayerShape s{.phase = models::Phase::Train, .batch = in.micro_batch, .seq = in.seq,
                               .fused = in.flash_attention, .causal_halving = in.causal_halving,
                               .bytes_per_element = in.dtype.bytes, .layer_index = layer};
    for (const auto& op : models::layer_ops(m, s)) {
      const double share = replicated_under_tp(op.name) ? 1.0 : 1.0 / in.tp;
      const std::string key = op.kind == models::OpKind::Matmul ? mm : elementwise_peak_key(*in.device);
      const std::string group = moe ? "MoE layer" : "dense layer";
      StepOp row = price_op(op.name + " " + op.pass, group, count, op.flops * share, op.bytes * share, key,
                            *in.device, op.note);
      st.ops.push_back(row);
      if (recomputed(op, in.recompute)) {
        row.name = op.name + " recompute";
        st.ops.push_back(row);
      }
    }
  }
}

void add_lm_head(const TrainStepInput& in, TrainStep& st) {
  const auto& m = *in.model;
  const double T = double(in.seq) * double(in.micro_batch), d = double(m.d_model), V = double(m.vocab);
  const double e = in.dtype.bytes;
  st.ops.push_back(price_op("lm_head fwd", "head", 1, 2 * T * d * V / in.tp, e * (T * d + V * d + T * V) / in.tp,
                            in.dtype.peak_key, *in.device, "logits of every position"));
  st.ops.push_back(price_op("lm_head bwd", "head", 1, 4 * T * d * V / in.tp,
                            e * (2 * T * V + 2 * V * d + 2 * T * d) / in.tp, in.dtype.peak_key, *in.device,
                            "dX and dW of the head"));
}

void add_communication(const TrainStepInput& in, TrainStep& st) {
  if (in.tp == 1 && in.pp == 1) return;
  const double S = double(in.seq) * double(in.micro_batch) * in.model->d_model * in.dtype.bytes;
  if (in.tp > 1) {
    const int per_layer = in.recompute == models::Recompute::Full ? 6 : 4;
    const GroupComm ar = group_all_reduce(S, in.tp, *in.device, in.topology);
    st.ops.push_back({"tp_all_reduce", "communication", per_layer * in.model->layers, 0, S, ar.time_s, "link", "",
                      fmt::format("{} per layer, S = {:.4g} B; {}", per_layer, S, ar.how)});
  }
  if (in.pp > 1)  // activations forward and gradients backward across each boundary
    st.ops.push_back({"pp_send", "communication", 2, 0, S * (in.pp - 1),
                      pp_sends_s(S, in.tp, in.pp, *in.device, in.topology), "link", "",
                      "forward activations and backward gradients, every stage boundary"});
}

}  // namespace

TrainStep train_step_time(const TrainStepInput& in) {
  if (!in.model || !in.device) throw std::invalid_argument("a model and a device are required");
  if (in.seq < 1 || in.micro_batch < 1)
    throw std::invalid_argument(fmt::format("seq and micro-batch must be positive (seq {}, micro-batch {})", in.seq,
                                            in.micro_batch));
  check_layout(in.model, int64_t(in.tp) * in.pp, in.tp, in.pp);
  TrainStep st;
  add_layers(in, st);
  add_lm_head(in, st);
  add_communication(in, st);
  double sum = 0;
  for (const auto& op : st.ops) {
    const double t = op.total_s();
    sum += t;
    (op.bound == "link" ? st.comm_s : op.bound == "memory" ? st.memory_s : st.compute_s) += t;
  }
  st.time_s = sum / in.pp;
  const double tokens = double(in.seq) * double(in.micro_batch);
  st.model_flops = models::train_flops(*in.model, {tokens, in.seq, in.causal_halving, in.recompute}).model_flops;
  st.roofline_mfu = st.model_flops / (double(in.tp) * in.pp * in.device->peak_for(in.dtype.peak_key).value * st.time_s);
  return st;
}

}  // namespace simt::cost
