// What the kernel time model reads about one launch: its shape and the counters
// the simulator (or Nsight Compute) gives, as plain numbers. The CLI fills it from
// a LaunchRecord or from `simt run --json`; cost/ never sees the simulator.
#pragma once
#include <string>
#include <vector>

namespace simt::cost {

// One global load/store/atomic instruction (a source site, or a source line when
// only per-line totals are known): enough to tell coalesced from scattered.
struct GlobalSite {
  enum class Op { Load, Store, Atomic } op = Op::Load;
  double requests = 0;  // warp-level instructions with an active lane
  double sectors = 0;   // 32-byte sectors they touched, summed
  double lanes = 32;    // average active lanes per request
  // Every instruction of the site is outside loops (a fully unrolled loop's copies):
  // its requests per warp are issued together, not one round trip after another.
  bool straight_line = false;
  // The loop of the optimised code the site sits in (an id; 0: outside loops or not
  // known), and whether that loop's body is branch-free: nvcc then unrolls it and
  // issues several iterations' loads before the first use.
  unsigned loop = 0;
  bool batched = false;
  // Bytes the site's loads read from DRAM (their first touches of a sector in the
  // launch); < 0 when not known: the launch's share is used.
  double dram_read_bytes = -1;
  // The basic block of the optimised code the site lies in (an ordinal in its
  // function; 0: not known). In a loop that branches, loads of different blocks wait
  // one after another; the loads of one block are in flight together.
  unsigned block = 0;
  // Sectors the same warp's previous load at this site touched too (a thread walking
  // its own row): L1 hits on the GPU; 0 when not known.
  double reread_sectors = 0;
  // The most load instructions of the site one basic block holds (a fully unrolled
  // copy loop's copies; 1 when not known). In a loop that branches they are issued
  // together: a warp's round trips at the site are its requests over the copies.
  double copies = 1;
  // With `batched`: nvcc unrolls the loop 16 deep (a small innermost body, a trip count
  // not bounded by a small constant) and ptxas has about 12 of its loads out before the
  // first use, shared by the loop's load sites (sim/types/events.hpp, kSiteLoopDeep;
  // kDeepLoadsOut).
  bool deep = false;
  // Clocks L1 spent serving the site's lines (simt__l1_data_cycles.sum of the site); 0
  // when not known. A request's data arrives over its clocks: a thread-per-row walk's
  // 32 lines, 16 to 32 clocks after the first.
  double l1_cycles = 0;
};

// One shared-memory instruction (a source site): its warp requests and its loop, as
// GlobalSite's; the latency chain takes the accesses of a branch-free loop to overlap.
struct SharedSite {
  double requests = 0;  // loads, stores and atomics
  bool straight_line = false;
  unsigned loop = 0;
  bool batched = false;
};

struct KernelCounters {
  std::string kernel;
  // Launch shape.
  double blocks = 0;              // gridDim.x * y * z
  double threads_per_block = 0;   // blockDim.x * y * z
  double shared_bytes_per_block = 0;  // static + dynamic
  // Global memory (ncu l1tex__t_{requests,sectors}_pipe_lsu_mem_global_op_*).
  double ld_requests = 0, ld_sectors = 0;
  double st_requests = 0, st_sectors = 0;
  double atom_requests = 0, atom_sectors = 0;  // ATOM and RED together
  // The global atomics' sector rounds in their busiest 512-byte block of addresses
  // (simt__global_atomic_hot_rounds.max); 0 where unknown (ncu's counters).
  double atomic_hot_rounds = 0;
  // Per site; when empty the model treats each kind as one site of the averages.
  std::vector<GlobalSite> sites;
  // Shared sites; when empty the latency chain takes every shared access as dependent.
  std::vector<SharedSite> shared_sites;
  // Shared memory (smsp__sass_inst_executed_op_shared_*, l1tex__data_pipe_lsu_wavefronts_*).
  double shared_ld_inst = 0, shared_st_inst = 0, shared_atom_inst = 0;
  double shared_ld_wavefronts = 0, shared_st_wavefronts = 0;
  // Thread-level FP instructions (smsp__sass_thread_inst_executed_op_*_pred_on).
  double fp32_inst = 0;  // fadd + fmul + ffma
  double fp64_inst = 0;  // dadd + dmul + dfma
  double fp16_inst = 0;  // hadd + hmul + hfma (packed pairs count once)
  double flops = 0;      // add + mul + 2 fma over all precisions
  // Tensor-core FLOPs of library GEMMs (simt__tensor_{tf32,16bit}_flops.sum); not in flops.
  double tensor_tf32_flops = 0, tensor_16bit_flops = 0;
  // simtlab's own: warp-level instructions counted (FP, memory, collectives).
  double warp_inst = 0, thread_inst = 0, warp_collectives = 0;
  double warp_barriers = 0;  // __syncthreads, once per warp of the block
  // Every SASS instruction (smsp__inst_executed.sum, smsp__thread_inst_executed.sum):
  // ncu's, or the compiler front end's estimate; 0 when unknown.
  double sass_warp_inst = 0, sass_thread_inst = 0;
  // The simulator's compulsory-DRAM estimate (dram__bytes_{read,write}.sum).
  double dram_read_bytes = 0, dram_write_bytes = 0;
  // Page-locked host memory the kernel touches (zero-copy), the same estimate
  // (simt__sysmem_bytes_{read,write}.sum): over the host link, not DRAM.
  double sysmem_read_bytes = 0, sysmem_write_bytes = 0;
  // Clocks of loop-carried dependent latency, per warp summed over warps
  // (simt__carried_chain_clk.sum, the compiler front end's estimate); 0 where unknown.
  double carried_chain_clk = 0;
  // The same for the code outside loops, once per warp (simt__straight_chain_clk.sum).
  double straight_chain_clk = 0;
  // The chains after the global loads of loops whose loads are not issued ahead, per
  // iteration, summed (simt__load_use_chain_clk.sum); 0 where unknown.
  double load_use_chain_clk = 0;
  // Clocks L1 spends serving the global instructions' lines (simt__l1_data_cycles.sum,
  // sim/count/l1_rule.hpp); 0 where unknown (ncu's counters): the l1 term then takes a
  // line a clock.
  double l1_data_cycles = 0;

  double warps_per_block() const;  // ceil(threads / 32)
  double warps() const { return blocks * warps_per_block(); }
  double global_sectors() const { return ld_sectors + st_sectors + atom_sectors; }
  double shared_wavefronts() const { return shared_ld_wavefronts + shared_st_wavefronts; }
  double shared_requests() const { return shared_ld_inst + shared_st_inst; }
};

// Throws std::invalid_argument naming the field when a count is negative or not
// finite, or the launch has no blocks or threads.
void validate(const KernelCounters& c);

}  // namespace simt::cost
