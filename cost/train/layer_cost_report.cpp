// How a priced layer prints itself: an aligned table with totals, or JSON.
#include "cost/train/layer_cost.hpp"
#include "cost/train/layer_cost_report.hpp"

#include <fmt/core.h>

namespace simt::cost {

namespace {
std::string header(const LayerReportContext& c) {
  const auto& s = c.shape;
  return fmt::format("layer {} of {} ({}{}), phase {}, batch {}, {} {}, {} on {}, {}\n\n", c.cost.layer_index,
                     c.model.name, c.cost.moe_layer ? "MoE" : "dense", c.model.is_mla() ? ", MLA" : "",
                     models::to_string(s.phase), s.batch, s.phase == models::Phase::Decode ? "cached tokens" : "seq",
                     s.seq, c.dtype.name, c.device.name, s.fused ? "fused" : "unfused");
}
}  // namespace

std::string to_text(const LayerReportContext& c, bool explain) {
  std::string o = header(c);
  o += fmt::format("{:<18} {:<4} {:>11} {:>11} {:>9} {:>11} {:>8}  {}\n", "op", "pass", "FLOP", "bytes",
                   "FLOP/B", "time", "bound", "peak");
  for (const auto& oc : c.cost.ops) {
    o += fmt::format("{:<18} {:<4} {:>11.4g} {:>11.4g} {:>9.3g} {:>8.4g} us {:>8}  {}\n", oc.op.name, oc.op.pass,
                     oc.op.flops, oc.op.bytes, oc.intensity, oc.time_s * 1e6, oc.bound, oc.precision);
    if (explain) o += fmt::format("{:>24}{}\n", "", oc.op.note);
  }
  const auto& t = c.cost;
  o += fmt::format("{:<18} {:<4} {:>11.4g} {:>11.4g} {:>9.3g} {:>8.4g} us\n", "total", "", t.flops, t.bytes,
                   t.flops / t.bytes, t.time_s * 1e6);
  o += fmt::format("\n{:.0f}% of the time in compute-bound ops, {:.0f}% in memory-bound ops.\n",
                   100 * t.compute_bound_s / t.time_s, 100 * t.memory_bound_s / t.time_s);
  o += fmt::format("x {} layers = {:.4g} ms (layers only: no embedding, LM head or communication).\n",
                   c.model.layers, t.time_s * c.model.layers * 1e3);
  o += fmt::format(
      "\nConventions: each op alone on the roofline, time = max(FLOP / peak, bytes / {:.4g} B/s HBM); matmuls at\n"
      "the {} tensor-core peak, elementwise ops at the fp32 CUDA-core peak; bytes are compulsory traffic (a lower\n"
      "bound); attention {}; backward matmuls 2x forward.{}\n",
      c.device.hbm_bandwidth, c.dtype.peak_key,
      c.shape.causal_halving ? "causal-halved" : "not causal-halved (--causal halves QK^T and PV)",
      explain ? "" : " --explain shows how each op was counted.");
  return o;
}

nlohmann::json to_json(const LayerReportContext& c) {
  nlohmann::json ops = nlohmann::json::array();
  for (const auto& oc : c.cost.ops)
    ops.push_back({{"name", oc.op.name}, {"pass", oc.op.pass}, {"flops", oc.op.flops}, {"bytes", oc.op.bytes},
                   {"intensity", oc.intensity}, {"time_s", oc.time_s}, {"bound", oc.bound},
                   {"precision", oc.precision}, {"note", oc.op.note}});
  return {{"model", c.model.name},
          {"device", c.device.name},
          {"phase", models::to_string(c.shape.phase)},
          {"batch", c.shape.batch},
          {"seq", c.shape.seq},
          {"fused", c.shape.fused},
          {"causal_halving", c.shape.causal_halving},
          {"dtype", c.dtype.name},
          {"layer_index", c.cost.layer_index},
          {"moe_layer", c.cost.moe_layer},
          {"ops", ops},
          {"total", {{"flops", c.cost.flops}, {"bytes", c.cost.bytes}, {"time_s", c.cost.time_s}}},
          {"model_layers_time_s", c.cost.time_s * c.model.layers}};
}

}  // namespace simt::cost
