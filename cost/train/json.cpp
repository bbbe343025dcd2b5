#include "cost/train/json.hpp"

namespace simt::cost {

using nlohmann::json;

json to_json(const PipelineResult& r) {
  json ops = json::array();
  for (const PipelineOp& o : r.ops)
    ops.push_back({{"stage", o.stage}, {"microbatch", o.microbatch}, {"chunk", o.chunk},
                   {"pass", o.forward ? "F" : "B"}, {"start", o.start}, {"end", o.end}});
  return {{"schedule", to_string(r.in.schedule)},
          {"stages", r.in.stages},
          {"microbatches", r.in.microbatches},
          {"virtual_stages", r.in.virtual_stages},
          {"forward_s", r.in.forward_s},
          {"backward_s", r.in.backward_s},
          {"ideal_s", r.ideal_s},
          {"bubble_s", r.bubble_s},
          {"total_s", r.total_s},
          {"bubble_of_total", r.bubble_of_total},
          {"bubble_of_ideal", r.bubble_of_ideal},
          {"simulated_total_s", r.simulated_total_s},
          {"peak_inflight_microbatches", r.peak_inflight_microbatches},
          {"activation_bytes", r.in.activation_bytes},
          {"wire_bytes_per_step", r.wire_bytes_per_step},
          {"formula", r.formula},
          {"ops", ops}};
}

json to_json(const DdpResult& r) {
  json buckets = json::array();
  for (const DdpBucket& b : r.buckets)
    buckets.push_back({{"bytes", b.bytes}, {"ready_s", b.ready_s}, {"start_s", b.start_s}, {"end_s", b.end_s}});
  return {{"params", r.in.params},
          {"grad_bytes", r.grad_bytes},
          {"bucket_bytes", r.in.bucket_bytes},
          {"backward_s", r.in.backward_s},
          {"gpus", r.in.gpus},
          {"link", r.link},
          {"algo", to_string(r.in.algo)},
          {"comm_total_s", r.comm_total_s},
          {"single_allreduce_s", r.single_allreduce_s},
          {"exposed_s", r.exposed_s},
          {"step_s", r.step_s},
          {"no_overlap_s", r.no_overlap_s},
          {"hidden_fraction", r.hidden_fraction},
          {"buckets", buckets}};
}

}  // namespace simt::cost
