// The counter catalog: each simtlab counter with its Nsight Compute metric name
// (where one exists), whether it is exact or an estimate, and its definition.
#pragma once
#include "sim/count/counters.hpp"

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
const char* fidelity_name(Fidelity f);

}  // namespace simt
