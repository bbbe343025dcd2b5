// Turning launch records into what people read: diagnostics, counter tables,
// per-line tables and the JSON the CLI prints.
#pragma once
#include "sim/state/diagnostic.hpp"
#include "sim/state/launch_record.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace simt {

// One line on deferred launches (sim/shortcuts/deferred_launches.hpp), or empty.
std::string deferral_summary(const std::vector<LaunchRecord>& records);
std::string counter_table(const LaunchRecord& r);
std::string hot_lines_table(const LaunchRecord& r, std::size_t max_lines = 8);
nlohmann::json launch_json(const LaunchRecord& r);
// One entry per global load/store/atomic site: {"op": "ld"|"st"|"atom", "requests",
// "sectors", "lanes"}, what the kernel time model reads (timing/time_model_io.hpp).
nlohmann::json global_sites_json(const LaunchRecord& r);
// One entry per shared-memory instruction site: its warp requests and its loop
// (sim/types/events.hpp), which the time model's latency chain reads.
nlohmann::json shared_sites_json(const LaunchRecord& r);

}  // namespace simt
