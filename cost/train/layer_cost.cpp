#include "cost/train/layer_cost.hpp"

#include "cost/train/step_time.hpp"

namespace simt::cost {

namespace {
OpCost price(const models::Op& op, const DeviceSpec& device, const Dtype& dtype) {
  OpCost c{op, op.kind == models::OpKind::Matmul ? dtype.peak_key : elementwise_peak_key(device), 0, 0, "fused"};
  if (op.flops == 0 && op.bytes == 0) return c;  // folded into a neighbour's epilogue
  if (op.bytes == 0) {
    // Work done in registers of another kernel: it costs FLOPs, never traffic.
    c.time_s = op.flops / device.peak_for(c.precision).value;
    c.bound = "epilogue";
    return c;
  }
  const RooflineResult r = roofline(device, {.flops = op.flops, .dram_bytes = op.bytes, .precision = c.precision});
  c.time_s = r.time_s;
  c.intensity = r.intensity;
  c.bound = r.bound;
  return c;
}
}  // namespace

LayerCost cost_layer(const models::ModelConfig& m, const models::LayerShape& shape, const DeviceSpec& device,
                     const Dtype& dtype) {
  models::LayerShape s = shape;
  s.bytes_per_element = dtype.bytes;
  LayerCost lc;
  lc.layer_index = models::resolve_layer_index(m, s);
  lc.moe_layer = m.is_moe_layer(lc.layer_index);
  for (const auto& op : models::layer_ops(m, s)) {
    OpCost c = price(op, device, dtype);
    lc.flops += op.flops;
    lc.bytes += op.bytes;
    lc.time_s += c.time_s;
    (c.bound == "memory" ? lc.memory_bound_s : lc.compute_bound_s) += c.time_s;
    lc.ops.push_back(std::move(c));
  }
  return lc;
}

}  // namespace simt::cost
