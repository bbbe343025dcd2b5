// JSON views of pipeline schedules and data-parallel overlap. Keys are stable (scripts in plots/
// and the course's checkers read them); values are SI units unless the key names
// another unit. Adding keys is fine; renaming or removing one is a break.
#pragma once
#include "cost/train/ddp.hpp"
#include "cost/train/pipeline.hpp"

#include <nlohmann/json.hpp>

namespace simt::cost {

nlohmann::json to_json(const PipelineResult& r);  // bubble_of_total, bubble_of_ideal, ...
nlohmann::json to_json(const DdpResult& r);       // exposed_s, step_s, comm_total_s, buckets, ...

}  // namespace simt::cost
