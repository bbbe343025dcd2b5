// One training micro-batch as the sum of its operators' rooflines (forward,
// backward, recomputation, LM head) plus the tensor-parallel all-reduces, and the
// MFU that time implies: the best MFU a step of these kernels can reach.
#pragma once
#include "cost/catalog/catalog.hpp"
#include "cost/comm/topology.hpp"
#include "cost/train/llm_dtype.hpp"
#include "cost/train/step_time.hpp"
#include "models/model.hpp"
#include "models/train_flops.hpp"

#include <vector>

namespace simt::cost {

struct TrainStepInput {
  const models::ModelConfig* model = nullptr;
  const DeviceSpec* device = nullptr;
  Dtype dtype{"bf16", 2, "bf16"};
  int64_t seq = 2048, micro_batch = 1;
  int tp = 1, pp = 1;
  models::Recompute recompute = models::Recompute::None;
  bool flash_attention = true;   // fused kernels (simt layer --fused)
  bool causal_halving = false;   // as the MFU's model FLOPs count it
  Topology topology;
};

struct TrainStep {
  std::vector<StepOp> ops;       // per GPU of one stage's share, whole micro-batch
  double time_s = 0;             // per micro-batch on one replica (tp x pp GPUs), pipeline full, no bubble
  double compute_s = 0, memory_s = 0, comm_s = 0;
  double model_flops = 0;        // 6ND + attention term for the micro-batch's tokens
  double roofline_mfu = 0;       // model_flops / (tp x pp x peak x time_s)
};

// Throws std::invalid_argument for impossible layouts and sizes.
TrainStep train_step_time(const TrainStepInput& in);

}  // namespace simt::cost
