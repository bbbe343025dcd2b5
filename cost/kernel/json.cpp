#include "cost/kernel/json.hpp"

namespace simt::cost {

using nlohmann::json;

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

}  // namespace simt::cost
