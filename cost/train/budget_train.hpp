// A training budget: FLOPs, time, GPU-hours, cost and energy for a model, a token
// count and a cluster; and the memory each GPU needs under the chosen parallelism.
#pragma once
#include "cost/catalog/catalog.hpp"
#include "cost/comm/topology.hpp"
#include "cost/train/llm_dtype.hpp"
#include "cost/train/memory.hpp"
#include "cost/train/train_step.hpp"
#include "models/model.hpp"
#include "models/train_flops.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace simt::cost {

// How fast the cluster runs, as exactly one of:
enum class UtilizationKind {
  Mfu,       // model FLOPs utilisation: model FLOPs / (G x peak x U)
  Hfu,       // hardware FLOPs utilisation: hardware FLOPs (with recompute) / (G x peak x U)
  Achieved,  // measured hardware FLOP/s per GPU, as Megatron reports it
  Roofline,  // the MFU of the per-operator roofline step (cost/train/train_step): a bound
};

struct TrainBudgetInput {
  const models::ModelConfig* model = nullptr;  // null: --params only (no activations, 6ND)
  double params_override = 0;                   // > 0 replaces the model's count
  double tokens = 0;
  int gpus = 0;
  const DeviceSpec* device = nullptr;
  UtilizationKind util_kind = UtilizationKind::Mfu;
  double util = 0;                  // U in (0, 1], or FLOP/s per GPU for Achieved
  ParallelLayout layout;            // dp is derived: gpus / (tp pp)
  int bytes_per_param = 16;
  models::Recompute recompute = models::Recompute::None;
  bool sequence_parallel = false;
  int64_t seq = 0;                  // 0: the model's context
  int64_t micro_batch = 1;
  int64_t global_batch = 0;         // sequences per optimizer step; 0: not given (no accumulation count)
  bool flash_attention = false;     // activations without the s^2 scores (the CLI's default is on)
  bool causal_halving = false;
  Dtype dtype{"bf16", 2, "bf16"};
  double price_per_gpu_hour = 0;    // 0: the catalog's, if any
  Topology topology;                // links of the roofline step's TP all-reduces and PP sends
};

struct TrainBudget {
  TrainBudgetInput in;
  models::TrainFlops flops;
  double counted_flops = 0;   // the FLOPs the utilisation applies to (model or hardware)
  double peak = 0;            // FLOP/s per GPU
  double time_s = 0, gpu_hours = 0, days = 0;
  // The same with 6ND alone (8ND under full recomputation on the hardware basis):
  // the back-of-envelope of Narayanan et al. 2021, Eq. 4, time = 8TP/(nX).
  double simple_flops = 0, simple_days = 0;
  double price = 0, cost_usd = 0;  // 0 price: unknown
  double energy_kwh = 0;      // G x TDP x time (an upper bound: GPUs only, at TDP)
  std::optional<TrainStep> step;
  bool util_from_roofline = false;  // the MFU used is step->roofline_mfu  // per micro-batch, per operator (needs a model)
  ModelStateMemory states;
  std::optional<ActivationMemory> activations;
  double bytes_per_gpu = 0;
  bool fits = false;
  // Activations grow linearly in the micro-batch: the largest b whose activations
  // fit beside the model states, and the gradient-accumulation steps it implies,
  // ceil(global batch / (micro-batch x dp)) (0 when no global batch was given).
  int64_t max_micro_batch = 0;
  int64_t grad_accumulation = 0;
};

// Validates and computes; throws std::invalid_argument with a clear message.
TrainBudget train_budget(TrainBudgetInput in);

nlohmann::json to_json(const TrainBudget& b);
std::string to_text(const TrainBudget& b, bool explain);

}  // namespace simt::cost
