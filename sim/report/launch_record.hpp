// Everything one kernel launch produced: its configuration, counters (total and
// per source site), and diagnostics. The CLI and tests read these.
#pragma once
#include "sim/count/counters.hpp"
#include "sim/check/diagnostic.hpp"
#include "sim/cuda/vector_types.hpp"

#include <string>
#include <vector>

namespace simt {

struct LaunchRecord {
  std::string kernel;          // source name, template arguments included
  const void* kernel_fn = nullptr;
  dim3 grid, block;
  std::size_t dynamic_shared_bytes = 0;
  std::size_t static_shared_bytes = 0;
  Counters totals;
  SiteCounters per_site;
  std::vector<Diagnostic> diagnostics;
  int error = 0;               // a cudaError_t value; 0 = success
  double wall_seconds = 0;
  unsigned workers = 0;
};

// Launches in order since the start of the process (or the last clear).
const std::vector<LaunchRecord>& launch_records();
void clear_launch_records();

}  // namespace simt
