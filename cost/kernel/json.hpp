// JSON views of roofline results. Keys are stable (scripts in plots/
// and the course's checkers read them); values are SI units unless the key names
// another unit. Adding keys is fine; renaming or removing one is a break.
#pragma once
#include "cost/kernel/roofline.hpp"

#include <nlohmann/json.hpp>

namespace simt::cost {

nlohmann::json to_json(const RooflineResult& r);  // precision, peak_flops, time_s, bound, levels, ...

}  // namespace simt::cost
