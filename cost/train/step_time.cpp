// Conventions (docs/cost-model-llm.md, "Step time"):
//  - the operators are those of `simt layer --fused` (FlashAttention, fused norms,
//    GEMM epilogues) for every layer, plus the LM head on one position per sequence;
//  - under tensor parallelism each operator's FLOPs and bytes split evenly over
//    the tp GPUs, except norms and residual adds, which every GPU repeats on the
//    whole hidden state (Megatron-LM without sequence parallelism);
//  - each layer ends its attention and its MLP with an all-reduce of the
//    tokens x d_model activations (Shoeybi et al. 2019, sec. 3: 2 per layer in a
//    forward pass), timed as the faster of ring and tree (NCCL's tuner picks the
//    algorithm with the lowest predicted time, src/graph/tuning.cc); each
//    pipeline-stage boundary sends the same tensor once;
//  - nothing overlaps: the step is the sum of its rows.
#include "cost/train/step_time.hpp"

#include "cost/comm/comm.hpp"
#include "cost/train/layout_check.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <stdexcept>

namespace simt::cost {

namespace {

void validate(const StepInput& in) {
  if (!in.model || !in.device) throw std::invalid_argument("a model and a device are required");
  if (in.phase == models::Phase::Train) throw std::invalid_argument("step_time prices prefill and decode steps");
  if (in.batch < 1) throw std::invalid_argument(fmt::format("batch must be positive, got {}", in.batch));
  if (in.seq < 1) throw std::invalid_argument(fmt::format("sequence length must be positive, got {}", in.seq));
  check_layout(in.model, int64_t(in.tp) * in.pp, in.tp, in.pp);
  require_peaks(in.precisions, *in.device);
}

models::LayerShape shape_for(const StepInput& in, int layer) {
  return {.phase = in.phase, .batch = in.batch, .seq = in.seq, .fused = true, .causal_halving = true,
          .bytes_per_element = int(in.precisions.activations.bytes), .weight_bytes = in.precisions.weights.bytes,
          .kv_bytes = in.precisions.kv.bytes, .layer_index = layer};
}

void add_layers(const StepInput& in, StepTime& st) {
  const auto& m = *in.model;
  for (int layer = 0; layer < m.layers; ++layer) {
    // Layers of one kind are identical: price the first of each kind once.
    const bool moe = m.is_moe_layer(layer);
    if (layer > 0 && moe == m.is_moe_layer(layer - 1)) continue;
    const int count = moe ? m.moe_layers() : m.layers - m.moe_layers();
    for (const auto& op : models::layer_ops(m, shape_for(in, layer))) {
      const double share = replicated_under_tp(op.name) ? 1.0 : 1.0 / in.tp;
      const std::string key =
          op.kind == models::OpKind::Matmul ? in.precisions.matmul_peak_key() : elementwise_peak_key(*in.device);
      st.ops.push_back(price_op(op.name, moe ? "MoE layer" : "dense layer", count, op.flops * share,
                                op.bytes * share, key, *in.device, op.note));
    }
  }
}

void add_lm_head(const StepInput& in, StepTime& st) {
  const auto& m = *in.model;
  const double rows = double(in.batch), e = in.precisions.activations.bytes, ew = in.precisions.weights.bytes;
  const double flops = 2 * rows * m.d_model * m.vocab / in.tp;
  const double bytes = (ew * double(m.vocab) * m.d_model + e * rows * (m.d_model + m.vocab)) / in.tp;
  st.ops.push_back(price_op("lm_head", "head", 1, flops, bytes, in.precisions.matmul_peak_key(), *in.device,
                         "logits of the last position of each sequence (vocabulary split over tp)"));
}

void add_communication(const StepInput& in, StepTime& st) {
  if (in.tp == 1 && in.pp == 1) return;
  const double tokens = double(in.batch) * (in.phase == models::Phase::Decode ? 1 : in.seq);
  const double S = tokens * in.model->d_model * in.precisions.activations.bytes;
  if (in.tp > 1) {
    const GroupComm ar = group_all_reduce(S, in.tp, *in.device, in.topology);
    st.link = ar.how;
    st.ops.push_back({"tp_all_reduce", "communication", 2 * in.model->layers, 0, S, ar.time_s, "link", "",
                      fmt::format("after attention and MLP, S = {:.4g} B; {}", S, ar.how)});
  }
  if (in.pp > 1) {
    const double t = pp_sends_s(S, in.tp, in.pp, *in.device, in.topology);
    if (st.link.empty()) st.link = "stage sends";
    st.ops.push_back({"pp_send", "communication", 1, 0, S * (in.pp - 1), t, "link", "",
                      fmt::format("{} stage boundaries, S = {:.4g} B each: alpha + S/B", in.pp - 1, S)});
  }
}

}  // namespace

bool replicated_under_tp(const std::string& name) {
  return name.find("norm") != std::string::npos || name.find("residual") != std::string::npos;
}

StepOp price_op(const std::string& name, const std::string& group, int count, double flops, double bytes,
             const std::string& key, const DeviceSpec& device, const std::string& note) {
  StepOp r{name, group, count, flops, bytes, 0, "fused", key, note};
  if (flops == 0 && bytes == 0) return r;  // folded into a neighbour's kernel
  const double compute = flops / device.peak_for(key).value, memory = bytes / device.hbm_bandwidth;
  r.time_s = std::max(compute, memory);
  r.bound = bytes == 0 ? "epilogue" : compute >= memory ? "compute" : "memory";
  return r;
}

StepTime step_time(const StepInput& in) {
  validate(in);
  StepTime st;
  st.in = in;
  add_layers(in, st);
  add_lm_head(in, st);
  add_communication(in, st);
  st.peak = in.device->peak_for(in.precisions.matmul_peak_key()).value;
  st.bandwidth = in.device->hbm_bandwidth;
  for (const auto& op : st.ops) {
    const double t = op.total_s();
    st.time_s += t;
    if (op.bound == "link") {
      st.comm_s += t;
      continue;
    }
    (op.bound == "memory" ? st.memory_s : st.compute_s) += t;
    st.flops += op.count * op.flops;
    st.bytes += op.count * op.bytes;
  }
  const double compute = st.flops / st.peak, memory = st.bytes / st.bandwidth;
  st.aggregate_s = std::max(compute, memory);
  st.aggregate_bound = compute >= memory ? "compute" : "memory";
  return st;
}

std::string elementwise_peak_key(const DeviceSpec& device) { return device.peak.count("fp32") ? "fp32" : "bf16"; }

std::string step_table(const StepTime& s) {
  std::string o = fmt::format("  {:<16} {:<13} {:>5} {:>11} {:>11} {:>11} {:>10}  {}\n", "op", "where", "x", "FLOP",
                              "bytes", "time", "bound", "peak");
  for (const auto& op : s.ops)
    o += fmt::format("  {:<16} {:<13} {:>5} {:>11.4g} {:>11.4g} {:>8.4g} ms {:>10}  {}\n", op.name, op.group,
                     op.count, op.count * op.flops, op.count * op.bytes, op.total_s() * 1e3, op.bound, op.precision);
  o += fmt::format("  {:<16} {:<13} {:>5} {:>11.4g} {:>11.4g} {:>8.4g} ms\n", "sum", "", "", s.flops, s.bytes,
                   s.time_s * 1e3);
  return o;
}

}  // namespace simt::cost
