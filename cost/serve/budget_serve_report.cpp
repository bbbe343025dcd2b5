// How a serving budget prints itself: JSON for plots, text with its formulas.
#include "cost/serve/budget_serve.hpp"

#include <fmt/core.h>

namespace simt::cost {

namespace {

std::string sweep_table(const ServeBudget& b) {
  std::string o = fmt::format("  {:>9} {:>12} {:>14} {:>12} {:>10} {:>14} {:>8}\n", "batch", "step", "tokens/s",
                              "GB read/GPU", "intensity", "aggregate", "bound");
  for (const auto& p : b.sweep)
    o += fmt::format("  {:>9} {:>9.4g} ms {:>14.4g} {:>12.4g} {:>10.3g} {:>11.4g} ms {:>8}\n", p.batch,
                     p.step_s * 1e3, p.tokens_per_s, p.bytes / 1e9, p.flops / p.bytes, p.aggregate_s * 1e3, p.bound);
  return o;
}

std::string layout_line(const ServeBudget& b) {
  return fmt::format("{} GPUs = tp {} x pp {} x dp {}", b.in.gpus, b.tp, b.pp, b.dp);
}

std::string step_summary(const StepTime& s) {
  std::string o = fmt::format("{:.4g} ms = sum of operators: {:.4g} ms in compute-bound ops, {:.4g} ms memory-bound",
                              s.time_s * 1e3, s.compute_s * 1e3, s.memory_s * 1e3);
  if (s.comm_s > 0)
    o += fmt::format(", {:.4g} ms communicating ({:.0f}%: {})", s.comm_s * 1e3, 100 * s.comm_s / s.time_s, s.link);
  o += fmt::format("\n    (aggregate bound max(FLOPs/peak, bytes/BW) = {:.4g} ms, {}-bound: it assumes every kernel "
                   "overlaps every other)\n",
                   s.aggregate_s * 1e3, s.aggregate_bound);
  return o;
}

std::string explanation(const ServeBudget& b) {
  const auto& in = b.in;
  return fmt::format(
      "\nDecode step, per operator and per GPU (binding term of each):\n{}"
      "\n  step time = sum over operators of max(FLOPs / peak, bytes / bandwidth) + communication.\n"
      "  Operators: `simt layer --fused` for each of {} layers plus the LM head on one position per sequence;\n"
      "  weights are read once per step (MoE: only the experts the batch touches), each sequence's KV cache once.\n"
      "  Tensor parallelism splits each operator over tp GPUs except norms and residual adds (repeated on each);\n"
      "  2 all-reduces per layer (Shoeybi et al. 2019, sec. 3); pipeline stages add one send per boundary and\n"
      "  do not shorten a step (one batch in flight).\n"
      "  matmul peak {} {:.4g} FLOP/s: {}\n  bandwidth {:.4g} B/s: {}\n",
      step_table(b.decode_step), in.model->layers, b.precisions.matmul_peak_key(), b.peak,
      in.device->peak_for(b.precisions.matmul_peak_key()).source, b.bandwidth,
      in.device->fields.count("memory_bandwidth_gbs") ? in.device->fields.at("memory_bandwidth_gbs").source : "");
}

}  // namespace

std::string to_text(const ServeBudget& b, bool explain) {
  const auto& in = b.in;
  const auto& m = *in.model;
  const auto& p = b.precisions;
  std::string o = fmt::format("budget serve: {} on {} x {} ({}), batch {}, context {}, {}\n\n", m.name, in.gpus,
                              in.device->name, layout_line(b), in.batch, in.context, p.label());
  o += "Memory (one replica: tp x pp GPUs together)\n";
  o += fmt::format("  weights           {:>24}   {:.6g} params x {} ({})\n", gb_and_gib(b.weights_bytes),
                   b.weights_bytes / p.weights.bytes, p.weights.note, p.weights.name);
  o += fmt::format("  KV per token      {:>24}   {}{}\n",
                   fmt::format("{:.0f} B ({:.4g} KiB)", b.kv.bytes_per_token, b.kv.bytes_per_token / 1024),
                   b.kv.formula,
                   b.kv_replication > 1 ? fmt::format(", x {:.4g} copies across the TP group", b.kv_replication) : "");
  o += fmt::format("  KV for the batch  {:>24}   {} x {} tokens\n", gb_and_gib(b.kv_bytes), in.batch, in.context);
  o += fmt::format("  usable            {:>24}   {} GPU{} x {} x {} (memory fraction)\n", gb_and_gib(b.usable_bytes),
                   b.tp * b.pp, b.tp * b.pp == 1 ? "" : "s", gb_and_gib(in.device->hbm_bytes), in.memory_fraction);
  o += fmt::format("  largest batch     {:>24}   floor((usable - weights) / (KV per token x context))\n\n",
                   b.max_batch);
  o += fmt::format("Prefill of the batch ({} x {} tokens)\n  {}\n", in.batch, in.context, step_summary(b.prefill));
  o += fmt::format("Decode step (one token per sequence, {} tokens cached each)\n", in.context);
  o += fmt::format("  batch {}: {:.4g} tokens/s ({} replica{}), mostly {}-bound; {}", b.decode.batch,
                   b.decode.tokens_per_s, b.dp, b.dp == 1 ? "" : "s", b.decode.bound, step_summary(b.decode_step));
  if (b.usd_per_million_tokens > 0)
    o += fmt::format("  ${:.4g} per million output tokens at ${:.4g} per GPU-hour ({})\n", b.usd_per_million_tokens,
                     b.price_per_gpu_hour, b.price_source);
  else
    o += "  no price for this device in the catalog: --price-per-gpu-hour gives $ per million tokens\n";
  if (b.kwh_per_million_tokens > 0)
    o += fmt::format("  {:.4g} kWh per million output tokens = G x TDP {:.0f} W x time (GPUs at TDP: an upper bound)\n",
                     b.kwh_per_million_tokens, in.device->tdp_watts);
  o += sweep_table(b);
  if (explain) o += explanation(b);
  o += fmt::format(
      "\nConventions: GB = 1e9 B, GiB = 2^30 B (HBM capacity is binary); causal attention halved in prefill;\n"
      "{} of HBM usable (--memory-fraction); step = sum of per-operator bounds (no overlap between kernels).{}\n",
      in.memory_fraction, explain ? "" : " --explain shows each operator.");
  return o;
}

namespace {
nlohmann::json ops_json(const StepTime& s) {
  nlohmann::json ops = nlohmann::json::array();
  for (const auto& op : s.ops)
    ops.push_back({{"name", op.name}, {"group", op.group}, {"count", op.count}, {"flops", op.flops},
                   {"bytes", op.bytes}, {"time_s", op.time_s}, {"bound", op.bound}, {"precision", op.precision}});
  return ops;
}
}  // namespace

nlohmann::json to_json(const ServeBudget& b) {
  const auto& in = b.in;
  nlohmann::json sweep = nlohmann::json::array();
  for (const auto& p : b.sweep)
    sweep.push_back({{"batch", p.batch}, {"step_s", p.step_s}, {"tokens_per_s", p.tokens_per_s}, {"flops", p.flops},
                     {"bytes", p.bytes}, {"aggregate_s", p.aggregate_s}, {"bound", p.bound}});
  return {{"model", in.model->name},
          {"device", in.device->name},
          {"gpus", in.gpus},
          {"tp", b.tp},
          {"pp", b.pp},
          {"dp", b.dp},
          {"batch", in.batch},
          {"context", in.context},
          {"weights_precision", b.precisions.weights.name},
          {"activations_precision", b.precisions.activations.name},
          {"kv_precision", b.precisions.kv.name},
          {"memory_fraction", in.memory_fraction},
          {"weights_bytes", b.weights_bytes},
          {"kv_bytes_per_token", b.kv.bytes_per_token},
          {"kv_bytes", b.kv_bytes},
          {"usable_bytes", b.usable_bytes},
          {"max_batch", b.max_batch},
          {"prefill_s", b.prefill.time_s},
          {"prefill_aggregate_s", b.prefill.aggregate_s},
          {"decode_step_s", b.decode.step_s},
          {"decode_aggregate_s", b.decode.aggregate_s},
          {"decode_comm_s", b.decode_step.comm_s},
          {"decode_tokens_per_s", b.decode.tokens_per_s},
          {"decode_bound", b.decode.bound},
          {"decode_ops", ops_json(b.decode_step)},
          {"usd_per_million_tokens", b.usd_per_million_tokens},
          {"price_per_gpu_hour", b.price_per_gpu_hour},
          {"kwh_per_million_tokens", b.kwh_per_million_tokens},
          {"decode_sweep", sweep}};
}

}  // namespace simt::cost
