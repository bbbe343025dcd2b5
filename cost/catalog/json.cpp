#include "cost/catalog/json.hpp"

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

}  // namespace simt::cost
