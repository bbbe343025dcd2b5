// A serving budget: does the model fit on N tensor-parallel GPUs, how large a batch
// fits beside it, and how fast prefill and decode can go (roofline bounds).
#pragma once
#include "cost/catalog.hpp"
#include "cost/kv_cache.hpp"
#include "cost/llm_dtype.hpp"
#include "models/model.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace simt::cost {

struct ServeBudgetInput {
  const models::ModelConfig* model = nullptr;
  const DeviceSpec* device = nullptr;
  int gpus = 1;               // tensor-parallel degree
  int64_t batch = 1;          // concurrent sequences
  int64_t context = 0;        // tokens per sequence in the KV cache (prompt + generated)
  Dtype dtype{"bf16", 2, "bf16"};  // weights, KV cache and compute
  double memory_fraction = 0.9;    // of HBM usable for weights + KV (vLLM's default 0.9)
};

// One decode step (every sequence emits one token) at a batch size.
struct DecodePoint {
  int64_t batch = 0;
  double flops = 0, bytes = 0;
  double step_s = 0, tokens_per_s = 0;
  std::string bound;
};

struct ServeBudget {
  ServeBudgetInput in;
  double weights_bytes = 0;        // all GPUs together
  KvCacheSize kv;
  double kv_bytes = 0;             // batch x context x kv per token
  double usable_bytes = 0;         // gpus x HBM x memory_fraction
  int64_t max_batch = 0;
  double peak = 0, bandwidth = 0;  // per GPU
  double prefill_flops = 0, prefill_bytes = 0, prefill_s = 0;
  std::string prefill_bound;
  DecodePoint decode;              // at the requested batch
  std::vector<DecodePoint> sweep;  // 1, 2, 4, ... up to max_batch
};

// Throws std::invalid_argument for bad sizes, and when the batch does not fit.
ServeBudget serve_budget(const ServeBudgetInput& in);

nlohmann::json to_json(const ServeBudget& b);
std::string to_text(const ServeBudget& b, bool explain);

}  // namespace simt::cost
