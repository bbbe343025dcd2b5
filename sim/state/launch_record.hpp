// Everything one kernel launch produced: its configuration, counters (total and
// per source site), and diagnostics. The CLI and tests read these.
#pragma once
#include "sim/count/counters.hpp"
#include "sim/count/thread_tally.hpp"
#include "sim/count/warp_trace.hpp"
#include "sim/state/diagnostic.hpp"
#include "sim/types/vector_types.hpp"

#include <nlohmann/json.hpp>

#include <optional>
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
  // Each thread's global accesses per allocation and operation, reduced over the
  // launch (sim/count/thread_tally.hpp); only with SIMT_OPTIONS=thread_accesses=1.
  // A sampled launch's cover its counted blocks only; a skipped repeat keeps its
  // original's (the record is copied whole).
  std::optional<ThreadAccessTotals> thread_accesses;
  // The first N warp-level accesses of each site with every lane's address
  // (sim/count/warp_trace.hpp); only with SIMT_OPTIONS=trace_warps=N. Counted blocks
  // only; a skipped repeat keeps its original's.
  std::optional<AccessTrace> access_trace;
  int error = 0;               // a cudaError_t value; 0 = success
  double wall_seconds = 0;
  unsigned workers = 0;
  bool printed = false;        // device code wrote to stdout (printf): never skipped as a repeat
  // Not re-executed: identical to launch number `repeat_of` (1-based) and unable to
  // change memory (sim/shortcuts/repeat_launch.hpp); its counters are that launch's.
  std::size_t repeat_of = 0;
  // cudaLaunchCooperativeKernel: its blocks ran all at once, and grid_group::sync()
  // completed `grid_barriers` times (sim/exec/grid_sync.hpp).
  bool cooperative = false;
  std::uint32_t grid_barriers = 0;
  bool repeat_inexact = false; // skipped although it changes memory (simt exec --skip-all-repeats)
  // Deferred (sim/shortcuts/deferred_launches.hpp): counted and timed but not executed when
  // launched; `ran_late` once something read what it writes and it ran. A repeat
  // takes its counters from `repeat_of`; a launch run ahead of deferred ones was
  // counted on memory they had not yet written.
  bool deferred = false;
  bool ran_late = false;
  // A repeat not executed because its inputs held the same bytes as before launch
  // `repeat_of` ran: that launch's outputs were written back (sim/shortcuts/content_memo.hpp).
  // A deferred one is replayed when it runs late.
  bool replayed = false;
  // Sampled (sim/shortcuts/sampling.hpp): only this many of its blocks were counted and the
  // counters are estimated from them; 0: every block was counted.
  std::uint64_t counted_blocks = 0;
  // Its estimated relative standard error (sim/shortcuts/sample_spread.hpp): the largest of
  // the instructions', FP operations' and memory instructions'.
  double sample_error = 0;
  // On the simulated clock (sim/clock/device_clock.hpp): stream 0 is the legacy default.
  int device = 0;              // the simulated GPU it ran on (cudaSetDevice)
  int stream = 0;
  double clock_start_s = 0, clock_seconds = 0;
  std::string clock_bound;     // the time model's binding term; empty when unpriced
  // The time model's account of this launch, computed once, where it ran (the clock's
  // WorkTime::detail); null when no model priced it.
  nlohmann::json clock_detail;
};

// Launches in order since the start of the process (or the last clear).
const std::vector<LaunchRecord>& launch_records();  // clear_launch_records: sim/shortcuts/launch.hpp

}  // namespace simt
