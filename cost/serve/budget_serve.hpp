// A serving budget: does the model fit on its GPUs, how large a batch fits beside
// it, and how long prefill and decode steps take (sum of per-operator rooflines,
// with the tensor-parallel all-reduces and pipeline sends).
#pragma once
#include "cost/catalog/catalog.hpp"
#include "cost/serve/kv_cache.hpp"
#include "cost/train/llm_dtype.hpp"
#include "cost/train/precision.hpp"
#include "cost/train/step_time.hpp"
#include "models/model.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace simt::cost {

struct ServeBudgetInput {
  const models::ModelConfig* model = nullptr;
  const DeviceSpec* device = nullptr;
  int gpus = 1;               // all GPUs: tp x pp x dp (dp replicas serve independently)
  int tp = 0;                 // tensor-parallel degree; 0 = gpus / pp
  int pp = 1;                 // pipeline stages
  int64_t batch = 1;          // concurrent sequences per replica
  int64_t context = 0;        // tokens per sequence in the KV cache (prompt + generated)
  Dtype dtype{"bf16", 2, "bf16"};          // all three precisions, unless `precisions` is given
  std::optional<Precisions> precisions;    // weights / activations / KV cache separately
  double memory_fraction = 0.9;            // of HBM usable for weights + KV (vLLM's default 0.9)
  Topology topology;                       // in-server link, network link, GPUs per server
  double price_per_gpu_hour = 0;           // 0: the catalog's price, if it has one
};

// One decode step (every sequence emits one token) at a batch size.
struct DecodePoint {
  int64_t batch = 0;
  double flops = 0, bytes = 0;    // per GPU
  double step_s = 0, tokens_per_s = 0;
  double aggregate_s = 0;         // max(F/peak, B/bandwidth): the everything-overlaps bound
  std::string bound;              // the term holding most of the step's time
};

struct ServeBudget {
  ServeBudgetInput in;
  int tp = 1, pp = 1, dp = 1;
  Precisions precisions;
  double weights_bytes = 0;        // one replica
  KvCacheSize kv;
  double kv_replication = 1;       // copies of each KV head across the TP group (tp > kv_heads, MLA)
  double kv_bytes = 0;             // batch x context x kv per token x replication
  double usable_bytes = 0;         // tp x pp x HBM x memory_fraction
  int64_t max_batch = 0;
  double peak = 0, bandwidth = 0;  // per GPU
  StepTime prefill;                // the batch's prompts
  StepTime decode_step;            // the requested batch, per operator
  DecodePoint decode;              // the same, summarised
  std::vector<DecodePoint> sweep;  // 1, 2, 4, ... up to max_batch
  double price_per_gpu_hour = 0;      // given, else the catalog's; 0: unknown
  std::string price_source;           // "--price-per-gpu-hour" or the catalog's source and note
  double usd_per_million_tokens = 0;  // 0: no price
  double kwh_per_million_tokens = 0;  // G x TDP x time per token; 0: TDP not published
};

// Throws std::invalid_argument for impossible inputs, and when the batch does not fit.
ServeBudget serve_budget(const ServeBudgetInput& in);

nlohmann::json to_json(const ServeBudget& b);
std::string to_text(const ServeBudget& b, bool explain);

}  // namespace simt::cost
