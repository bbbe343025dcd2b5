// Memory: weights and KV cache split over the tp x pp GPUs of one replica.
// Time: cost/train/step_time (sum of per-operator rooflines plus communication).
#include "cost/serve/budget_serve.hpp"

#include "cost/train/layout_check.hpp"
#include "models/params.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace simt::cost {

namespace {

void validate(const ServeBudgetInput& in) {
  if (!in.model || !in.device) throw std::invalid_argument("a model and a device are required");
  if (in.batch <= 0) throw std::invalid_argument(fmt::format("batch must be positive, got {}", in.batch));
  if (in.context <= 0) throw std::invalid_argument(fmt::format("context must be positive, got {}", in.context));
  if (!(in.memory_fraction > 0 && in.memory_fraction <= 1))
    throw std::invalid_argument(fmt::format("memory fraction must be in (0, 1], got {}", in.memory_fraction));
  require_non_negative(in.price_per_gpu_hour, "the price per GPU-hour");
}

DecodePoint summarise(const StepTime& st, int64_t batch, int dp) {
  DecodePoint p;
  p.batch = batch;
  p.flops = st.flops;
  p.bytes = st.bytes;
  p.step_s = st.time_s;
  p.aggregate_s = st.aggregate_s;
  p.tokens_per_s = double(batch) * dp / st.time_s;
  const double most = std::max({st.compute_s, st.memory_s, st.comm_s});
  p.bound = most == st.compute_s ? "compute" : most == st.memory_s ? "memory" : "communication";
  return p;
}

StepTime step(const ServeBudget& b, models::Phase phase, int64_t batch) {
  return step_time({.model = b.in.model, .device = b.in.device, .phase = phase, .batch = batch, .seq = b.in.context,
                    .precisions = b.precisions, .tp = b.tp, .pp = b.pp, .topology = b.in.topology});
}

void size_memory(ServeBudget& b) {
  const auto& in = b.in;
  const auto& m = *in.model;
  b.weights_bytes = double(models::count_params(m).total) * b.precisions.weights.bytes;
  b.kv = kv_cache_size(m, b.precisions.kv.bytes);
  b.kv_replication = kv_replication(m, b.tp);
  const double kv_per_seq = b.kv.bytes_per_token * b.kv_replication * double(in.context);
  b.kv_bytes = kv_per_seq * double(in.batch);
  b.usable_bytes = double(b.tp) * b.pp * in.device->hbm_bytes * in.memory_fraction;
  const double free_bytes = b.usable_bytes - b.weights_bytes;
  if (free_bytes <= 0)
    throw std::invalid_argument(fmt::format(
        "{} weights need {:.2f} GB but tp x pp = {} x {} {} at {} gives {:.2f} GB: use more GPUs or narrower "
        "weights",
        m.name, b.weights_bytes / 1e9, b.tp, b.pp, in.device->name, in.memory_fraction, b.usable_bytes / 1e9));
  b.max_batch = int64_t(std::floor(free_bytes / kv_per_seq));
  if (in.batch > b.max_batch)
    throw std::invalid_argument(fmt::format(
        "batch {} does not fit: {} sequences x {} tokens x {:.0f} B/token = {:.2f} GB of KV cache, but only "
        "{:.2f} GB is left after {:.2f} GB of weights ({} x {} x {}); the largest batch that fits is {}",
        in.batch, in.batch, in.context, b.kv.bytes_per_token * b.kv_replication, b.kv_bytes / 1e9,
        free_bytes / 1e9, b.weights_bytes / 1e9, b.tp * b.pp, in.device->name, in.memory_fraction, b.max_batch));
}

// Dollars and energy per million output tokens at the requested batch: all
// G GPUs for one second produce tokens_per_s tokens (prefill not counted).
void price_tokens(ServeBudget& b) {
  const auto& in = b.in;
  const auto& d = *in.device;
  if (in.price_per_gpu_hour > 0) {
    b.price_per_gpu_hour = in.price_per_gpu_hour;
    b.price_source = "--price-per-gpu-hour";
  } else if (d.price_per_hour_usd > 0) {
    b.price_per_gpu_hour = d.price_per_hour_usd;
    const auto& f = d.fields.at("price_per_hour_usd");
    const auto url = f.source.find('<');  // "title <url>": the URL is enough beside the note
    b.price_source = f.note + (url == std::string::npos ? "" : " " + f.source.substr(url));
  }
  const double seconds_per_million = 1e6 / b.decode.tokens_per_s;
  b.usd_per_million_tokens = in.gpus * b.price_per_gpu_hour / 3600 * seconds_per_million;
  b.kwh_per_million_tokens = in.gpus * d.tdp_watts * seconds_per_million / 3.6e6;
}

}  // namespace

ServeBudget serve_budget(const ServeBudgetInput& in) {
  validate(in);
  ServeBudget b;
  b.in = in;
  b.pp = in.pp;
  b.tp = in.tp > 0 ? in.tp : (in.pp > 0 ? in.gpus / in.pp : 0);
  b.dp = int(check_layout(in.model, in.gpus, b.tp, b.pp));
  b.precisions = in.precisions ? *in.precisions : uniform_precisions(in.dtype.name);
  require_peaks(b.precisions, *in.device);
  size_memory(b);
  b.peak = in.device->peak_for(b.precisions.matmul_peak_key()).value;
  b.bandwidth = in.device->hbm_bandwidth;

  b.prefill = step(b, models::Phase::Prefill, in.batch);
  b.decode_step = step(b, models::Phase::Decode, in.batch);
  b.decode = summarise(b.decode_step, in.batch, b.dp);
  for (int64_t n = 1; n <= b.max_batch; n *= 2)
    b.sweep.push_back(summarise(step(b, models::Phase::Decode, n), n, b.dp));
  if (b.sweep.empty() || b.sweep.back().batch != b.max_batch)
    b.sweep.push_back(summarise(step(b, models::Phase::Decode, b.max_batch), b.max_batch, b.dp));
  price_tokens(b);
  return b;
}

}  // namespace simt::cost
