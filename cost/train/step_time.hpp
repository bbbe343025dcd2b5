// The time of one forward step of a whole model (a prefill or a decode step) as
// the sum of its operators, each priced alone with its own roofline, plus the
// tensor-parallel all-reduces and pipeline sends between them.
//
// Why a sum: GPUs run a model's kernels one after another (one stream), so a
// compute-bound GEMM cannot hide a memory-bound attention kernel. The aggregate
// bound max(total FLOPs / peak, total bytes / bandwidth) assumes they overlap
// perfectly; it is printed beside the sum as the lower bound it is.
#pragma once
#include "cost/catalog/catalog.hpp"
#include "cost/comm/comm.hpp"
#include "cost/comm/topology.hpp"
#include "cost/train/precision.hpp"
#include "models/layer_ops.hpp"
#include "models/model.hpp"

#include <string>
#include <vector>

namespace simt::cost {

struct StepInput {
  const models::ModelConfig* model = nullptr;
  const DeviceSpec* device = nullptr;
  models::Phase phase = models::Phase::Decode;  // Prefill or Decode (Train: see train_step_time)
  int64_t batch = 1;
  int64_t seq = 1;        // prefill: prompt tokens; decode: tokens already cached
  Precisions precisions = uniform_precisions("bf16");
  int tp = 1, pp = 1;
  Topology topology;      // links for tp/pp > 1: NVLink inside a server, the network across
};

// One row of the step: an operator (or a collective), per GPU, and how many
// times the step runs it (once per layer of its kind, once per stage boundary).
struct StepOp {
  std::string name;        // "qkv_proj", "lm_head", "tp_all_reduce", "pp_send"
  std::string group;       // "dense layer", "MoE layer", "head", "communication"
  int count = 1;
  double flops = 0, bytes = 0;  // per GPU, one instance
  double time_s = 0;            // one instance
  std::string bound;            // "compute", "memory", "epilogue", "link"
  std::string precision;        // peak key used (empty for communication)
  std::string note;
  double total_s() const { return count * time_s; }
};

struct StepTime {
  StepInput in;
  std::vector<StepOp> ops;
  double flops = 0, bytes = 0;    // per GPU, whole step
  double time_s = 0;              // sum over ops (the answer)
  double compute_s = 0, memory_s = 0, comm_s = 0;  // of time_s, by binding term
  double peak = 0, bandwidth = 0; // matmul peak and HBM bandwidth per GPU
  double aggregate_s = 0;         // max(flops / peak, bytes / bandwidth): the overlap-everything bound
  std::string aggregate_bound;    // its binding term
  std::string link;               // how the collectives ran, when tp or pp > 1
};

// Throws std::invalid_argument for impossible inputs (layout, sizes, precisions
// the device has no peak for).
StepTime step_time(const StepInput& in);

// One operator alone on a device: max(FLOPs / peak[key], bytes / bandwidth);
// "epilogue" when it moves no bytes, "fused" (0 s) when it does nothing.
StepOp price_op(const std::string& name, const std::string& group, int count, double flops, double bytes,
                const std::string& key, const DeviceSpec& device, const std::string& note);

// Elementwise work runs on CUDA cores at the fp32 rate; a TPU publishes no
// vector-unit peak, so its elementwise ops are priced at the bf16 MXU peak
// (they are memory-bound either way: ~1 FLOP per byte).
std::string elementwise_peak_key(const DeviceSpec& device);

// Under tensor parallelism norms and residual adds run in full on every GPU.
bool replicated_under_tp(const std::string& op_name);

// "qkv_proj 1.23 ms compute" style table, one row per op, and the totals.
std::string step_table(const StepTime& s);

}  // namespace simt::cost
