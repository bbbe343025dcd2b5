// How a serving budget prints itself: JSON for plots, text with its formulas.
#include "cost/budget_serve.hpp"

#include <fmt/core.h>

namespace simt::cost {

namespace {

std::string sweep_table(const ServeBudget& b) {
  std::string o = fmt::format("  {:>9} {:>12} {:>14} {:>12} {:>10} {:>8}\n", "batch", "step", "tokens/s", "GB read",
                              "intensity", "bound");
  for (const auto& p : b.sweep)
    o += fmt::format("  {:>9} {:>9.4g} ms {:>14.4g} {:>12.4g} {:>10.3g} {:>8}\n", p.batch, p.step_s * 1e3,
                     p.tokens_per_s, p.bytes / 1e9, p.flops / p.bytes, p.bound);
  return o;
}

}  // namespace

std::string to_text(const ServeBudget& b, bool explain) {
  const auto& in = b.in;
  const auto& m = *in.model;
  std::string o = fmt::format("budget serve: {} on {} x {} (tensor parallel), batch {}, context {}, {}\n\n", m.name,
                              in.gpus, in.device->name, in.batch, in.context, in.dtype.name);
  o += "Memory (all GPUs together)\n";
  o += fmt::format("  weights           {:>24}   {:.6g} params x {} B\n", gb_and_gib(b.weights_bytes),
                   b.weights_bytes / in.dtype.bytes, in.dtype.bytes);
  o += fmt::format("  KV per token      {:>24}   {}\n",
                   fmt::format("{:.0f} B ({:.4g} KiB)", b.kv.bytes_per_token, b.kv.bytes_per_token / 1024),
                   b.kv.formula);
  o += fmt::format("  KV for the batch  {:>24}   {} x {} tokens\n", gb_and_gib(b.kv_bytes), in.batch, in.context);
  o += fmt::format("  usable            {:>24}   {} GPUs x {} x {} (memory fraction)\n", gb_and_gib(b.usable_bytes),
                   in.gpus, gb_and_gib(in.device->hbm_bytes), in.memory_fraction);
  o += fmt::format("  largest batch     {:>24}   floor((usable - weights) / (KV per token x context))\n\n",
                   b.max_batch);
  o += fmt::format("Prefill of the batch ({} x {} tokens)\n", in.batch, in.context);
  o += fmt::format("  {:.4g} ms, {}-bound: max({:.4g} FLOP / ({} x {:.4g} FLOP/s), {:.4g} B / ({} x {:.4g} B/s))\n\n",
                   b.prefill_s * 1e3, b.prefill_bound, b.prefill_flops, in.gpus, b.peak, b.prefill_bytes, in.gpus,
                   b.bandwidth);
  o += fmt::format("Decode step (one token per sequence, {} tokens cached each)\n", in.context);
  o += fmt::format("  batch {}: {:.4g} ms per step, {:.4g} tokens/s, {}-bound ({:.4g} GB read, {:.4g} GFLOP)\n",
                   b.decode.batch, b.decode.step_s * 1e3, b.decode.tokens_per_s, b.decode.bound, b.decode.bytes / 1e9,
                   b.decode.flops / 1e9);
  o += sweep_table(b);
  if (explain) {
    o += fmt::format(
        "\n  step time = max(FLOPs / (G x peak), bytes / (G x bandwidth)); tokens/s = batch / step.\n"
        "  FLOPs and bytes: the layer decomposition (simt layer --fused) summed over {} layers plus the LM head\n"
        "  on one position per sequence; bytes = weights read once per step (for MoE only the experts the\n"
        "  batch touches) + each sequence's KV cache + activations. Tensor parallelism splits both evenly;\n"
        "  its all-reduces (2 per layer) are not counted, so the bounds are optimistic for G > 1.\n"
        "  peak {} {:.4g} FLOP/s: {}\n  bandwidth {:.4g} B/s: {}\n",
        m.layers, in.dtype.peak_key, b.peak, in.device->peak_for(in.dtype.peak_key).source, b.bandwidth,
        in.device->fields.count("memory_bandwidth_gbs") ? in.device->fields.at("memory_bandwidth_gbs").source : "");
  }
  o += fmt::format(
      "\nConventions: GB = 1e9 B, GiB = 2^30 B (HBM capacity is binary); causal attention halved in prefill;\n"
      "KV cache and weights in {}; {} of HBM usable (--memory-fraction).{}\n",
      in.dtype.name, in.memory_fraction, explain ? "" : " --explain shows the formulas' sources.");
  return o;
}

nlohmann::json to_json(const ServeBudget& b) {
  const auto& in = b.in;
  nlohmann::json sweep = nlohmann::json::array();
  for (const auto& p : b.sweep)
    sweep.push_back({{"batch", p.batch}, {"step_s", p.step_s}, {"tokens_per_s", p.tokens_per_s}, {"flops", p.flops},
                     {"bytes", p.bytes}, {"bound", p.bound}});
  return {{"model", in.model->name},
          {"device", in.device->name},
          {"gpus", in.gpus},
          {"batch", in.batch},
          {"context", in.context},
          {"dtype", in.dtype.name},
          {"memory_fraction", in.memory_fraction},
          {"weights_bytes", b.weights_bytes},
          {"kv_bytes_per_token", b.kv.bytes_per_token},
          {"kv_bytes", b.kv_bytes},
          {"usable_bytes", b.usable_bytes},
          {"max_batch", b.max_batch},
          {"prefill_s", b.prefill_s},
          {"prefill_bound", b.prefill_bound},
          {"decode_step_s", b.decode.step_s},
          {"decode_tokens_per_s", b.decode.tokens_per_s},
          {"decode_bound", b.decode.bound},
          {"decode_sweep", sweep}};
}

}  // namespace simt::cost
