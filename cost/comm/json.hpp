// JSON views of collective times and communication plans. Keys are stable (scripts in plots/
// and the course's checkers read them); values are SI units unless the key names
// another unit. Adding keys is fine; renaming or removing one is a break.
#pragma once
#include "cost/comm/comm.hpp"
#include "cost/comm/comm_plan.hpp"

#include <nlohmann/json.hpp>

namespace simt::cost {

nlohmann::json to_json(const CommResult& r);  // op, algo, bytes, gpus, time_s, algbw, busbw, ...
nlohmann::json to_json(const CommPlan& r);    // scheme, phases, wire_bytes_per_gpu, time_s

}  // namespace simt::cost
