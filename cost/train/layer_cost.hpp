// Times for each operator of one transformer layer on a device: the layer
// decomposition of models/layer_ops priced with the roofline.
#pragma once
#include "cost/catalog/catalog.hpp"
#include "cost/kernel/roofline.hpp"
#include "cost/train/llm_dtype.hpp"
#include "models/layer_ops.hpp"

#include <vector>

namespace simt::cost {

struct OpCost {
  models::Op op;
  std::string precision;  // peak used: the dtype's tensor-core key, or fp32 for elementwise
  double time_s = 0;
  double intensity = 0;   // FLOP/byte
  // "compute", "memory"; "epilogue" for work fused into another kernel (FLOPs at
  // the peak, no traffic); "fused" when nothing is left of it at all.
  std::string bound;
};

struct LayerCost {
  std::vector<OpCost> ops;
  int layer_index = 0;
  bool moe_layer = false;
  double flops = 0, bytes = 0, time_s = 0;
  double compute_bound_s = 0, memory_bound_s = 0;  // time spent in ops of each bound
};

// Each operator runs alone (no overlap between operators), so the layer's time is
// the sum of the operator times.
LayerCost cost_layer(const models::ModelConfig& m, const models::LayerShape& shape,
                     const DeviceSpec& device, const Dtype& dtype);

}  // namespace simt::cost
