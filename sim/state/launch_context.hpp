// A launch while it runs: its configuration and what every worker running its blocks
// shares (which blocks are left, faults, releases between blocks).
#pragma once
#include "sim/count/atomic_rule.hpp"
#include "sim/count/thread_tally.hpp"
#include "sim/count/warp_trace.hpp"
#include "sim/state/block_sequence.hpp"
#include "sim/state/context.hpp"
#include "sim/state/diagnostic.hpp"
#include "sim/state/release_log.hpp"
#include "sim/types/vector_types.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace simt {

struct KernelBody;
struct Module;
class GridSync;
class Worker;

struct LaunchConfig {
  dim3 grid, block;
  std::size_t dynamic_shared = 0;
  const void* stream = nullptr;  // a cudaStream_t; null: the legacy default stream
  // cudaLaunchCooperativeKernel: every block resident at once, grid_group::sync()
  // allowed (a grid larger than the device holds is refused with 720).
  bool cooperative = false;
};

struct LaunchContext {
  const void* kernel_fn = nullptr;
  const KernelBody* body = nullptr;
  LaunchConfig cfg;
  LaunchGeometry geometry;
  std::string kernel;
  std::string full_name;  // demangled, with signature
  const Module* module = nullptr;
  std::uint64_t nblocks = 0;
  unsigned threads_per_block = 0;
  std::uint32_t serial = 0;      // launch number, for global shadows
  std::uint16_t tag = 0;         // serial folded to 16 bits, never 0
  int device = 0;                // the simulated GPU it runs on
  // With several GPUs, the pages this GPU's kernels reach inline (GlobalMemory::page_bytes(device)):
  // another GPU's memory takes the slow path, which checks peer access. Null with one GPU.
  const std::uint16_t* global_pages = nullptr;
  // Workers take the blocks of `blocks` in order, counting through next_block: all of
  // them, or one part of a sampled launch (sim/shortcuts/sampling.hpp), whose blocks in
  // the part `uncounted` run their kernel's plain twin.
  BlockSequence blocks;
  std::atomic<std::uint64_t> next_block{0};
  std::uint64_t blocks_before = 0;  // run in earlier parts (for the progress display)
  bool uncounted = false;
  bool record_work = false;  // each counted block files its BlockWork (sampling.cpp judges the spread)
  // SIMT_OPTIONS=thread_accesses: counted blocks tally each thread's global accesses;
  // the workers' tallies are merged here as each part ends (run_part).
  bool tally_threads = false;
  ThreadAccessTotals thread_accesses;
  AtomicTally atomic_rounds;  // the counted blocks' global atomics, for AtomicHotRounds
  // SIMT_OPTIONS=trace_warps=N: counted blocks keep the first N rows of each site with
  // their lanes' addresses; the workers' samples are merged here as each part ends.
  unsigned trace_warps = 0;
  WarpTrace trace;
  GridSync* grid = nullptr;  // a cooperative launch's grid barrier; null otherwise
  const Worker* progress_worker = nullptr;  // the calling thread's worker
  std::chrono::steady_clock::time_point started, last_report;
  std::atomic<bool> failed{false};
  mutable ReleaseLog releases;  // fence-and-atomic publications between blocks (internally locked)
  std::mutex diag_mutex;
  std::vector<std::pair<std::uint64_t, Diagnostic>> faults;  // (block, diagnostic)
  std::vector<std::pair<std::uint64_t, Diagnostic>> warnings;  // (block, diagnostic), launch still succeeds
};

}  // namespace simt
