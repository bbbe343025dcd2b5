// Whole-model FLOPs and bytes come from the same layer decomposition `simt layer`
// prints (fused kernels, as serving engines run them), summed over all layers
// plus the LM head; the roofline is then applied to the totals split evenly over
// the tensor-parallel GPUs. TP all-reduces are not counted.
#include "cost/budget_serve.hpp"

#include "models/layer_ops.hpp"
#include "models/params.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace simt::cost {

namespace {

void validate(const ServeBudgetInput& in) {
  if (!in.model || !in.device) throw std::invalid_argument("a model and a device are required");
  if (in.gpus <= 0) throw std::invalid_argument(fmt::format("GPU count must be positive, got {}", in.gpus));
  if (in.batch <= 0) throw std::invalid_argument(fmt::format("batch must be positive, got {}", in.batch));
  if (in.context <= 0) throw std::invalid_argument(fmt::format("context must be positive, got {}", in.context));
  if (!(in.memory_fraction > 0 && in.memory_fraction <= 1))
    throw std::invalid_argument(fmt::format("memory fraction must be in (0, 1], got {}", in.memory_fraction));
}

struct Work { double flops = 0, bytes = 0; };

// FLOPs and bytes of a forward pass over all layers and the LM head.
Work model_forward(const models::ModelConfig& m, models::Phase phase, int64_t batch, int64_t seq, int bytes) {
  Work w;
  for (int layer = 0; layer < m.layers; ++layer) {
    // Layers of one kind are identical: price the first of each kind and multiply.
    const bool moe = m.is_moe_layer(layer);
    if (layer > 0 && moe == m.is_moe_layer(layer - 1)) continue;
    const int count = moe ? m.moe_layers() : m.layers - m.moe_layers();
    models::LayerShape s{.phase = phase, .batch = batch, .seq = seq, .fused = true, .causal_halving = true,
                         .bytes_per_element = bytes, .layer_index = layer};
    for (const auto& op : models::layer_ops(m, s)) {
      w.flops += count * op.flops;
      w.bytes += count * op.bytes;
    }
  }
  // LM head on the last position of each sequence (all positions' logits are not needed to serve).
  const double rows = double(batch);
  w.flops += 2 * rows * m.d_model * m.vocab;
  w.bytes += double(bytes) * (m.vocab * m.d_model + rows * (m.d_model + m.vocab));
  return w;
}

DecodePoint decode_point(const ServeBudget& b, int64_t batch) {
  const auto& in = b.in;
  const Work w = model_forward(*in.model, models::Phase::Decode, batch, in.context, in.dtype.bytes);
  DecodePoint p;
  p.batch = batch;
  p.flops = w.flops;
  p.bytes = w.bytes;
  const double compute = w.flops / (in.gpus * b.peak), memory = w.bytes / (in.gpus * b.bandwidth);
  p.step_s = std::max(compute, memory);
  p.bound = compute >= memory ? "compute" : "memory";
  p.tokens_per_s = double(batch) / p.step_s;
  return p;
}

}  // namespace

ServeBudget serve_budget(const ServeBudgetInput& in) {
  validate(in);
  const auto& m = *in.model;
  ServeBudget b;
  b.in = in;
  b.weights_bytes = double(models::count_params(m).total) * in.dtype.bytes;
  b.kv = kv_cache_size(m, in.dtype.bytes);
  b.kv_bytes = b.kv.bytes_per_token * double(in.batch) * double(in.context);
  b.usable_bytes = in.gpus * in.device->hbm_bytes * in.memory_fraction;
  b.peak = in.device->peak_for(in.dtype.peak_key).value;
  b.bandwidth = in.device->hbm_bandwidth;
  const double free_bytes = b.usable_bytes - b.weights_bytes;
  if (free_bytes <= 0)
    throw std::invalid_argument(fmt::format(
        "{} weights need {:.2f} GB but {} x {} x {} gives {:.2f} GB: use more GPUs or a smaller dtype", m.name,
        b.weights_bytes / 1e9, in.gpus, in.device->name, in.memory_fraction, b.usable_bytes / 1e9));
  b.max_batch = int64_t(std::floor(free_bytes / (b.kv.bytes_per_token * double(in.context))));
  if (in.batch > b.max_batch)
    throw std::invalid_argument(fmt::format(
        "batch {} does not fit: {} sequences x {} tokens x {:.0f} B/token = {:.2f} GB of KV cache, but only "
        "{:.2f} GB is left after {:.2f} GB of weights ({} x {} x {}); the largest batch that fits is {}",
        in.batch, in.batch, in.context, b.kv.bytes_per_token, b.kv_bytes / 1e9, free_bytes / 1e9,
        b.weights_bytes / 1e9, in.gpus, in.device->name, in.memory_fraction, b.max_batch));

  const Work pre = model_forward(m, models::Phase::Prefill, in.batch, in.context, in.dtype.bytes);
  b.prefill_flops = pre.flops;
  b.prefill_bytes = pre.bytes;
  const double pc = pre.flops / (in.gpus * b.peak), pm = pre.bytes / (in.gpus * b.bandwidth);
  b.prefill_s = std::max(pc, pm);
  b.prefill_bound = pc >= pm ? "compute" : "memory";

  b.decode = decode_point(b, in.batch);
  for (int64_t n = 1; n <= b.max_batch; n *= 2) b.sweep.push_back(decode_point(b, n));
  if (b.sweep.empty() || b.sweep.back().batch != b.max_batch) b.sweep.push_back(decode_point(b, b.max_batch));
  return b;
}

}  // namespace simt::cost
