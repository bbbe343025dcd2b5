// Per-thread global accesses, per allocation and operation: how often each thread
// read, wrote or atomically updated each buffer (SIMT_OPTIONS=thread_accesses=1).
// Not an Nsight Compute counter: the labs' per-thread limits ("each thread reads `a`
// at most once", "at most 2 global writes per block") are checked on it.
//
// A block's counts are kept thread by thread while it runs (BlockThreadTally) and
// reduced at its end to what a launch keeps (ThreadAccessTotals): sums, and the
// busiest thread and block. Only the reductions outlive the block, so the launch's
// tally stays a few entries however large the grid.
#pragma once
#include "sim/memory/warp_access.hpp"

#include <cstdint>
#include <vector>

namespace simt {

// One (allocation, operation) over the blocks counted so far.
struct ThreadAccessTotal {
  std::uint64_t base = 0;   // the allocation's base address
  std::uint64_t bytes = 0;  // its size
  MemOp op = MemOp::Load;
  std::uint64_t total = 0;           // thread-level accesses (one per active lane of a row)
  std::uint64_t max_per_thread = 0;  // the most by one thread
  std::uint64_t max_per_block = 0;   // the most by one block, its threads' summed
  // The thread that made max_per_thread accesses; of several, the lowest block, then
  // the lowest thread in it, so the answer does not depend on which worker ran what.
  std::uint64_t worst_block = 0;  // linear block index
  std::uint32_t worst_thread = 0; // linear thread index within its block
  Site worst_site = nullptr;      // that thread's last access of this allocation with this op
};

// Sorted by (base, op); at most a few entries per buffer a kernel touches.
using ThreadAccessTotals = std::vector<ThreadAccessTotal>;

// Adds `from` to `into`: sums summed, maxima the larger (the lower thread on a tie).
void merge_thread_totals(ThreadAccessTotals& into, const ThreadAccessTotals& from);

// One block's counts while it runs, in flat arrays [slot][thread], a slot per
// (allocation, op) the block touched: slots are found as the block runs, so each
// new one appends a row of nthreads counters and nothing moves.
class BlockThreadTally {
 public:
  void begin_block(unsigned nthreads);  // forgets the previous block's slots
  // A global row of warp `warp`: one access for each active lane.
  void add(const WarpAccess& row, unsigned warp);
  // This block's sums and maxima, added to a launch's.
  void fold_into(ThreadAccessTotals& launch, std::uint64_t block_linear) const;

 private:
  struct Slot {
    std::uint64_t base = 0, bytes = 0;
    MemOp op = MemOp::Load;
  };
  unsigned slot_of(std::uint64_t addr, std::uint32_t size, MemOp op);  // ~0u: in no allocation

  unsigned nthreads_ = 0;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> counts_;  // [slot * nthreads_ + thread]
  std::vector<Site> last_site_;        // [slot * nthreads_ + thread]
  // The last slot found: a row's lanes, and a loop's rows, mostly hit one buffer.
  unsigned last_slot_ = ~0u;
  // The last allocation found, for rows of the same buffer with another op.
  std::uint64_t alloc_base_ = 0, alloc_bytes_ = 0;
};

}  // namespace simt
