// The counter catalog: each simtlab counter with its Nsight Compute metric name
// (where one exists), whether it is exact or an estimate, and its definition.
#pragma once
#include "sim/count/counters.hpp"

#include <cstdint>
#include <span>

namespace simt {

enum class Fidelity { Exact, Estimate, Simtlab };

struct MetricInfo {
  Counter counter;
  const char* name;         // Nsight Compute name, or simt__... where ncu has no equivalent
  Fidelity fidelity;
  const char* description;
};

std::span<const MetricInfo> metric_catalog();

// Metrics computed from the counters, each defined here once; the JSON, the tables,
// `simt metrics` and everything downstream read them by name.
struct DerivedMetricInfo {
  const char* name;
  Fidelity fidelity;
  const char* description;  // the formula, in metric names
  std::uint64_t (*value)(const Counters&);
};
std::span<const DerivedMetricInfo> derived_metric_catalog();
const char* fidelity_name(Fidelity f);

}  // namespace simt
