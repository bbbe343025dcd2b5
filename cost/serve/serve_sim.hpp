// A serving simulator: a request trace driven through an iteration-level
// scheduler (ORCA's continuous batching, Yu et al. OSDI 2022) or static batching,
// with paged (vLLM's PagedAttention, Kwon et al. SOSP 2023) or contiguous KV
// memory, prefix caching (SGLang's RadixAttention, Zheng et al. 2024) as a hit
// rate, and chunked prefill (Sarathi-Serve, Agrawal et al. OSDI 2024). Each
// iteration's time comes from cost/serve/serve_iteration (per-operator rooflines).
#pragma once
#include "cost/catalog/catalog.hpp"
#include "cost/comm/topology.hpp"
#include "cost/serve/serve_trace.hpp"
#include "cost/train/precision.hpp"
#include "models/model.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace simt::cost {

struct SchedulerConfig {
  bool continuous = true;          // false: static batches run to completion
  bool paged = true;               // false: each request reserves max_model_len tokens up front
  int block_tokens = 16;           // vLLM's default block size
  bool chunked_prefill = true;     // false: prefill-only iterations take priority (vLLM v0)
  int64_t max_batched_tokens = 2048;  // tokens per iteration (chunk budget); >= max_model_len unchunked
  int max_seqs = 256;              // running sequences (vLLM's max_num_seqs default)
  double prefix_hit = 0;           // fraction of each prompt already in the prefix cache
  int64_t max_model_len = 0;       // 0: the model's context
};

// Disaggregated prefill and decode (DistServe, Zhong et al. OSDI 2024; Splitwise,
// Patel et al. ISCA 2024): prompts run on prefill instances, their KV cache moves
// over `transfer_link` to a decode instance that generates the rest. Each
// instance has tp GPUs; requests go to instances round-robin. 0/0: colocated.
struct Disaggregation {
  int prefill_instances = 0, decode_instances = 0;
  const LinkSpec* transfer_link = nullptr;  // null: the device's network link, one NIC per GPU
};

struct ServeSimInput {
  const models::ModelConfig* model = nullptr;
  const DeviceSpec* device = nullptr;
  Precisions precisions = uniform_precisions("bf16");
  int tp = 1;
  Topology topology;  // TP groups larger than a server cross the network
  double memory_fraction = 0.9;
  std::vector<Request> trace;
  SchedulerConfig sched;
  double slo_ttft_s = 1.0, slo_tpot_s = 0.1;  // goodput counts requests meeting both
  Disaggregation disagg;
};

struct RequestTiming {
  int id = 0;
  double arrival_s = 0, first_token_s = 0, finish_s = 0;
  int64_t prompt = 0, output = 0;
  int preemptions = 0;
  double ttft() const { return first_token_s - arrival_s; }
  double tpot() const { return output > 1 ? (finish_s - first_token_s) / double(output - 1) : 0; }
};

struct SimSample {
  double t = 0;
  double kv_used = 0;    // fraction of the KV pool allocated
  double kv_filled = 0;  // fraction holding tokens (allocated minus fragmentation/reservation)
  int running = 0, waiting = 0;
};

struct ServeSimResult {
  ServeSimInput in;  // trace dropped from the copy
  int64_t kv_capacity_tokens = 0;
  int64_t max_model_len = 0;
  std::vector<RequestTiming> requests;  // the requests served
  // As vLLM does: a request whose prompt leaves no room for one output token
  // (prompt >= max_model_len) is rejected, never truncated; one whose prompt +
  // output would pass max_model_len stops there (finish reason "length").
  int64_t rejected = 0;       // requests refused: prompt >= max_model_len
  int64_t capped = 0;         // requests whose output stopped at max_model_len
  int64_t good_requests = 0;  // served requests meeting both SLOs
  std::vector<SimSample> samples;  // one per iteration (thinned to <= 2000)
  int64_t iterations = 0, preemptions = 0;
  double kv_transfer_mean_s = 0;   // disaggregated: prefill-to-decode KV transfer per request
  double makespan_s = 0;           // first arrival to last finish
  double busy_s = 0;               // time the GPUs were running iterations
  double throughput_tokens_s = 0;  // output tokens / makespan
  double requests_per_s = 0, goodput_requests_s = 0;
  double mean_batch = 0;           // running sequences, weighted by busy time
  int peak_batch = 0;
  double mean_kv_used = 0, mean_kv_filled = 0;  // time-weighted
  double ttft_mean = 0, ttft_p50 = 0, ttft_p99 = 0, tpot_mean = 0, tpot_p50 = 0, tpot_p99 = 0;
};

// Throws std::invalid_argument for impossible inputs: a model whose weights do not
// fit, a KV pool smaller than one request. Requests whose prompt does not fit in
// max_model_len are rejected (counted in `rejected`), outputs that would pass it
// are capped (counted in `capped`), as vLLM does.
ServeSimResult simulate_serving(const ServeSimInput& in);

// One instance (tp GPUs) serving `in.trace`; every request must fit in
// max_model_len (simulate_serving rejects and caps first). `prefilled`: each request arrives
// with its prompt's KV cached and its first token emitted (a decode instance).
ServeSimResult simulate_instance(const ServeSimInput& in, bool prefilled);
// Prefill instances, KV transfer, decode instances (cost/serve/serve_disagg.cpp).
ServeSimResult simulate_disaggregated(const ServeSimInput& in);
// TTFT, TPOT, throughput and goodput from r.requests.
void summarise_requests(ServeSimResult& r, const ServeSimInput& in);

std::string to_text(const ServeSimResult& r);
nlohmann::json to_json(const ServeSimResult& r, bool with_samples);

}  // namespace simt::cost
