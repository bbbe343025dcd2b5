// A worker is one host thread that runs blocks one after another. It owns the
// fiber stacks, the per-thread state and the counters of the blocks it ran.
#pragma once
#include "sim/exec/block_ops.hpp"
#include "sim/state/block.hpp"
#include "sim/state/launch_context.hpp"
#include "sim/exec/executor.hpp"
#include "sim/exec/grid_sync.hpp"
#include "sim/state/block_sequence.hpp"
#include "sim/exec/block_work.hpp"
#include "sim/memory/global_memory.hpp"
#include "sim/symbols/symbols.hpp"
#include "sim/count/atomic_rule.hpp"
#include "sim/count/thread_tally.hpp"
#include "sim/count/warp_rereads.hpp"
#include "sim/count/warp_trace.hpp"
#include "sim/count/warp_grouping.hpp"
#include "sim/check/shared_checks.hpp"
#include "sim/state/warp_log.hpp"

#include <boost/context/fiber.hpp>

#include <atomic>
#include <chrono>
#include <mutex>
#include <span>
#include <string>
#include <vector>

namespace simt {

class Worker {
 public:
  Worker();
  ~Worker();
  void run_launch(LaunchContext& launch);  // takes blocks until none are left
  // A cooperative launch: this worker runs block `linear` alone, in its turns.
  void run_cooperative(LaunchContext& launch, std::uint64_t linear);
  // Fiber stacks, each with a guard page below it (two memory mappings a thread).
  static constexpr unsigned kMaxThreads = 1024;
  bool ensure_stacks(unsigned n);  // guard pages below the first n stacks
  void release_stacks();           // no guard pages: one mapping
  // The deferred checks of a convergent warp's rows, and with `count` their
  // counters (throws KernelFault). Without: just before the warp diverges.
  void process_rows(BlockState& b, unsigned warp, SharedCheckFlags on, bool count);

  Counters totals;
  SiteCounters per_site;
  // Adds this worker's counters to a launch's and clears them for the next part.
  void hand_over_counters(Counters& to_totals, SiteCounters& to_per_site);
  // Adds this worker's per-thread access tally (thread_accesses=1) to a launch's and clears it.
  void hand_over_thread_accesses(ThreadAccessTotals& to);
  void hand_over_atomics(AtomicTally& to) { atomic_tally_.merge_into(to); }
  // Merges this worker's sample of rows (trace_warps=N) into a launch's and empties it.
  void hand_over_trace(WarpTrace& to);
  std::vector<BlockWork> block_work;  // of a part with record_work, taken by sampling.cpp
  SharedWindows shared;
  const Allocation* recent_allocations[2] = {};  // lookup cache for global accesses, most recent first
  // Fiber handles: of each parked thread, and of the scheduler while threads run.
  // Control passes from a parking thread straight to the next runnable one (one
  // switch, not two); the context that gains control files the handle of the one
  // that left, named by switched_from, with accept().
  std::vector<boost::context::fiber> to_thread;
  boost::context::fiber to_scheduler;
  static constexpr unsigned kFromScheduler = ~0u, kFinished = ~0u - 1;
  unsigned switched_from = kFromScheduler;
  void accept(boost::context::fiber&& from);
  Counters& site_counters(Site site);  // per_site[site], through a small cache
  // The next runnable thread after `after` in this round, or the scheduler.
  boost::context::fiber& next_context(BlockState& b, unsigned after);

 private:
  void run_block(LaunchContext& launch, std::uint64_t linear);
  void run_uncounted_block(LaunchContext& launch, std::uint64_t linear);  // through the plain twin
  void run_recorded_block(LaunchContext& launch, std::uint64_t linear);   // counted, its work filed
  void report_progress(LaunchContext& launch);
  bool settle(BlockState& b);  // no thread runnable: complete what can complete
  void release_barrier(BlockState& b);
  bool release_grid_barrier(BlockState& b);  // false: the launch failed in another block
  void begin_launch(LaunchContext& launch);
  void end_launch();
  void map_addresses();  // t_address_map for this launch
  void check_pending_reads(BlockState& b);
  void close_interval(BlockState& b);  // at a barrier and at the end of the block
  // Counts and checks the logs of the warps whose threads wait at WarpLog's limit, and
  // lets those threads go on; false if none waits.
  bool flush_logs(BlockState& b);
  void count_divergent(unsigned warp);  // a divergent warp's lane logs, grouped
  // In totals and per site; with thread_accesses=1 or trace_warps=N also count_extras.
  void count_instruction(const WarpAccess& a, const InstructionCost& cost, unsigned warp);
  // The optional records of a row: the per-thread tally and the warp trace.
  void count_extras(const WarpAccess& a, unsigned warp);
  void count_operations(BlockState& b);
  // One site's count over a warp: summed over the lanes, and the busiest lane's.
  void count_site(Site site, std::uint32_t kind, std::uint64_t sum, std::uint64_t max);
  void stop_fibers(BlockState& b);
  // Thread t's fiber; one that has not started gets a fiber on the next free stack,
  // which then runs every following thread that has not started, one after another,
  // while none parks: a kernel without barriers needs one fiber per block, not one
  // per thread.
  boost::context::fiber& context_of(BlockState& b, unsigned t);
  void run_thread(BlockState& b, unsigned t, std::uintptr_t stack_lo);  // to its end (or the block's failure)
  unsigned next_runnable(const BlockState& b, unsigned from) const;  // nthreads if none

  std::uintptr_t stacks_ = 0;
  unsigned guarded_ = 0;  // stacks with their guard page in place (placed as blocks need them)
  unsigned next_stack_ = 0;        // stacks given to this block's fibers so far
  std::vector<std::uint8_t> started_;  // per thread of the block: it has run (on some fiber)
  std::vector<ThreadState> threads_;
  std::array<WarpLog, 32> logs_;  // a block has at most 32 warps
  std::vector<WarpAccess> scratch_;
  struct SiteSlot {
    Site site = nullptr;
    Counters* counters = nullptr;
  };
  std::array<SiteSlot, 16> site_cache_{};
  SharedPatternCache shared_patterns_;
  WarpRereads rereads_;  // each warp's last load per site, for GlobalLdRereadSectors
  std::vector<WarpSiteCounts> warp_ops_;  // per warp of the block: its lanes' per-site counts
  // Block records' folded FP operations (sim/exec/block_ops.hpp), by site.
  struct FoldedSlot {
    Site site = nullptr;
    std::span<const FoldedFpOp> ops;
  };
  std::array<FoldedSlot, 64> folded_cache_{};
  std::span<const FoldedFpOp> folded_ops(Site block);
  // SIMT_OPTIONS=thread_accesses (LaunchContext::tally_threads): the running block's
  // per-thread counts, and the counted blocks' reductions since the last hand-over.
  bool tally_threads_ = false;
  BlockThreadTally block_tally_;
  AtomicTally atomic_tally_;  // the counted blocks' global atomics per 512-byte block
  ThreadAccessTotals thread_totals_;
  // SIMT_OPTIONS=trace_warps (LaunchContext::trace_warps): the first rows of each site
  // in the counted blocks since the last hand-over; this block's index and rows so far.
  WarpTrace trace_;
  bool trace_block_ = false;  // this block is counted and traced
  std::uint64_t trace_linear_ = 0;
  std::uint32_t trace_seq_ = 0;
  // Either option on for this block: count_instruction's one branch.
  bool row_extras_ = false;

};

}  // namespace simt
