#include "cost/json.hpp"

namespace simt::cost {

using nlohmann::json;

json to_json(const Sourced& s) {
  json j = {{"value", s.value}, {"source", s.source}};
  if (!s.note.empty()) j["note"] = s.note;
  return j;
}

json to_json(const DeviceSpec& d) {
  json peak = json::object();
  for (auto& [k, v] : d.peak) peak[k] = v.value;
  json fields = json::object();
  for (auto& [k, v] : d.fields) fields[k] = to_json(v);
  return {
      {"name", d.name},
      {"full_name", d.full_name},
      {"arch", d.arch},
      {"compute_capability", d.compute_capability},
      {"sm_count", d.sm_count},
      {"boost_clock_ghz", d.boost_clock_ghz},
      {"warp_size", d.warp_size},
      {"max_threads_per_block", d.max_threads_per_block},
      {"max_threads_per_sm", d.max_threads_per_sm},
      {"registers_per_sm", d.registers_per_sm},
      {"shared_per_sm_bytes", d.shared_per_sm_bytes},
      {"shared_per_block_bytes", d.shared_per_block_bytes},
      {"shared_per_block_optin_bytes", d.shared_per_block_optin_bytes},
      {"l2_bytes", d.l2_bytes},
      {"hbm_bytes", d.hbm_bytes},
      {"hbm_bandwidth", d.hbm_bandwidth},
      {"tdp_watts", d.tdp_watts},
      {"peak_flops", peak},
      {"fields", fields},
  };
}

json to_json(const LinkSpec& l) {
  json fields = json::object();
  for (auto& [k, v] : l.fields) fields[k] = to_json(v);
  return {{"name", l.name},           {"full_name", l.full_name}, {"bandwidth", l.bandwidth},
          {"latency_s", l.latency_s}, {"source", l.source},       {"fields", fields}};
}

json to_json(const RooflineResult& r) {
  json levels = json::array();
  for (const MemoryLevel& m : r.levels)
    levels.push_back({{"name", m.name},           {"bytes", m.bytes},         {"bandwidth", m.bandwidth},
                      {"time_s", m.time_s},       {"intensity", m.intensity}, {"ridge", m.ridge},
                      {"source", m.source}});
  return {
      {"precision", r.precision},
      {"peak_flops", r.peak_flops},
      {"peak_source", r.peak_source},
      {"bandwidth", r.bandwidth},
      {"compute_s", r.compute_s},
      {"memory_s", r.memory_s},
      {"time_s", r.time_s},
      {"bound", r.bound},
      {"intensity", r.intensity},
      {"ridge", r.ridge},
      {"attainable_flops", r.attainable_flops},
      {"levels", levels},
  };
}

json to_json(const CommResult& r) {
  return {{"op", to_string(r.op)},
          {"algo", to_string(r.algo)},
          {"bytes", r.bytes},
          {"gpus", r.gpus},
          {"link", r.link},
          {"alpha_s", r.alpha_s},
          {"link_bandwidth", r.beta_bw},
          {"steps", r.steps},
          {"wire_factor", r.wire_factor},
          {"latency_s", r.latency_s},
          {"transfer_s", r.transfer_s},
          {"time_s", r.time_s},
          {"algbw", r.algbw},
          {"busbw", r.busbw},
          {"bus_factor", r.bus_factor},
          {"formula", r.formula}};
}

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

json to_json(const CommPlan& r) {
  json phases = json::array();
  for (const CommPhase& ph : r.phases)
    phases.push_back({{"what", ph.what}, {"op", to_string(ph.op)}, {"bytes", ph.bytes}, {"count", ph.count},
                      {"time_each_s", ph.each.time_s}, {"busbw", ph.each.busbw}});
  return {{"scheme", r.scheme},   {"per", r.per},
          {"gpus", r.gpus},       {"link", r.link},
          {"phases", phases},     {"wire_bytes_per_gpu", r.wire_bytes_per_gpu},
          {"time_s", r.time_s},   {"notes", r.notes}};
}

}  // namespace simt::cost
