// JSON views of catalog entries and cost results. Keys are stable (scripts in
// plots/ and the course's checkers read them); values are SI units unless the key
// names another unit. Adding keys is fine; renaming or removing one is a break.
#pragma once
#include "cost/catalog.hpp"
#include "cost/comm.hpp"
#include "cost/comm_plan.hpp"
#include "cost/ddp.hpp"
#include "cost/pipeline.hpp"
#include "cost/roofline.hpp"

#include <nlohmann/json.hpp>

namespace simt::cost {

nlohmann::json to_json(const Sourced& s);
nlohmann::json to_json(const DeviceSpec& d);   // name, full_name, ..., peak_flops, fields
nlohmann::json to_json(const LinkSpec& l);     // name, bandwidth, latency_s, fields
nlohmann::json to_json(const RooflineResult& r);
nlohmann::json to_json(const CommResult& r);     // op, algo, bytes, gpus, time_s, algbw, busbw, ...
nlohmann::json to_json(const PipelineResult& r); // bubble_of_total, bubble_of_ideal, ...
nlohmann::json to_json(const DdpResult& r);      // exposed_s, step_s, comm_total_s, buckets, ...
nlohmann::json to_json(const CommPlan& r);       // scheme, phases, wire_bytes_per_gpu, time_s

}  // namespace simt::cost
