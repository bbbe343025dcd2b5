#include "cost/comm/json.hpp"

namespace simt::cost {

using nlohmann::json;

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
