// The state of one thread block while it runs on a worker: its threads, warps,
// barrier, shared-memory windows and the scheduler hooks the intrinsics use.
#pragma once
#include "sim/state/context.hpp"
#include "sim/count/counters.hpp"
#include "sim/state/diagnostic.hpp"
#include "sim/state/release_log.hpp"
#include "sim/memory/shared_memory.hpp"
#include "sim/state/warp_log.hpp"

#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace simt {

struct LaunchContext;
class Worker;

// AtGridBarrier: at cooperative_groups::grid_group::sync() (sim/exec/grid_sync.hpp).
// AtLogLimit: the thread's warp has logged as many accesses since the last barrier
// as it may hold (WarpLog::kRowLimit); it waits for its warp's log to be counted.
enum class Run : std::uint8_t { Runnable, AtBarrier, AtWarpSync, AtGridBarrier, AtLogLimit, Done };

// Reduce: __reduce_*_sync, the operation in the slot's arg (ReduceOp); MatchAny and
// MatchAll: __match_any_sync and __match_all_sync; WarpCall: a warp-wide operation of
// simtlab's headers (wmma::mma_sync), see WarpCallArgs.
enum class Collective : std::uint8_t { Sync, Shfl, ShflUp, ShflDown, ShflXor, Ballot, Any, All, ActiveMask, Reduce, MatchAny, MatchAll, WarpCall };
// A WarpCall lane's value points to its arguments, whose first member is this: `run`
// is called once, by the lane that completes the group, with every lane's pointer
// (null for a lane outside the group), so one call computes the whole warp's result
// while the other lanes' stacks stay parked. The slot's arg is the kind the site table
// counts it as (sim/count/tensor_ops.hpp).
struct WarpCallArgs {
  void (*run)(void* const* lanes);
};
// The order of simt::cuda::ReduceOp (sim/compiler/include/simt_cuda/device_builtins.h).
enum class ReduceOp : int { Add, MinU, MaxU, MinS, MaxS, And, Or, Xor };

struct WarpSlot {
  Collective kind{};
  std::uint32_t mask = 0;
  std::uint64_t value = 0;
  int arg = 0;    // source lane, delta or lane mask
  int width = 32;
  Site site = nullptr;
  std::uint64_t result = 0;
};

struct WarpState {
  std::uint32_t waiting = 0;     // lanes parked at a collective
  std::uint32_t exited = 0;
  std::uint32_t present = 0;     // lanes that exist (last warp may be partial)
  std::array<WarpSlot, 32> slots{};
};

struct BlockState {
  const LaunchContext* launch = nullptr;
  Worker* worker = nullptr;
  uint3 idx{};
  std::uint64_t linear = 0;
  unsigned nthreads = 0, nwarps = 0;
  ThreadState* threads = nullptr;
  std::vector<Run> run;
  std::vector<WarpState> warps;
  WarpLog* logs = nullptr;               // per warp: memory accesses since the last barrier
  std::uint32_t epoch = 0;               // barriers passed
  std::vector<Site> barrier_site;        // per thread, while AtBarrier
  std::vector<int> barrier_value;        // per thread, for __syncthreads_count/and/or
  int barrier_result = 0;
  SharedWindows* shared = nullptr;
  bool failed = false;
  Diagnostic fault;
  bool stopped = false;  // another block of a cooperative launch failed: unwind without a diagnostic
  bool warned = false;  // once per block: threads exited before a barrier others reached
  Diagnostic warning;
  // Fence-and-atomic ordering with other blocks (sim/check/release_acquire.hpp).
  std::uint32_t fence_epoch = 0;  // 1 + the interval of the latest __threadfence(); 0: none
  std::uintptr_t released_word = 0;
  std::uint32_t released_epoch = 0;
  std::vector<Acquired> acquired;
  // Flag handoffs between warps of the block (sim/check/release_acquire.hpp), for the
  // interval `flags_epoch` - 1: per flag word, the warps its fenced stores published;
  // and whether thread-level ordering is in force (every warp's accesses are then
  // checked as they run, in the order they ran).
  std::uint32_t flags_epoch = 0;
  std::unordered_map<std::uintptr_t, std::uint32_t> flag_words;
  bool flag_order = false;
  bool flag_ordering() const { return flag_order && flags_epoch == epoch + 1; }

  void fail(Diagnostic d);               // record the block's first fault
  Diagnostic make_diag(DiagKind k, std::string msg, const ThreadState* t, Site site) const;
  std::string thread_name(std::uint32_t linear) const;  // "thread (3,1,0)"
};

// Park the current thread until the scheduler resumes it.
void yield_thread(ThreadState* t);
// Park the current thread until its warp's full log has been counted (WarpLog::kRowLimit).
void wait_for_log_flush(ThreadState* t);
// Leave the current thread parked for good, without unwinding its stack: for
// faults raised inside C functions that C++ exceptions must not cross.
[[noreturn]] void abandon_thread(ThreadState* t);

// Called by intrinsics.
// value: this thread's predicate for __syncthreads_count/_and/_or (0 for a plain barrier).
void block_barrier(int value, Site site);
// grid_group::sync(): in a cooperative launch, park until every thread of the grid
// arrived (exited ones count); in any other launch the launch fails, naming `site`.
void grid_barrier(Site site);
bool launch_is_cooperative();  // grid_group::is_valid()
std::uint64_t warp_collective(Collective kind, std::uint32_t mask, std::uint64_t value, int arg, int width, Site site);

}  // namespace simt
