// JSON views of catalog entries (devices, links, sourced numbers). Keys are stable (scripts in plots/
// and the course's checkers read them); values are SI units unless the key names
// another unit. Adding keys is fine; renaming or removing one is a break.
#pragma once
#include "cost/catalog/catalog.hpp"

#include <nlohmann/json.hpp>

namespace simt::cost {

nlohmann::json to_json(const Sourced& s);
nlohmann::json to_json(const DeviceSpec& d);   // name, full_name, ..., peak_flops, fields
nlohmann::json to_json(const LinkSpec& l);     // name, bandwidth, latency_s, fields

}  // namespace simt::cost
