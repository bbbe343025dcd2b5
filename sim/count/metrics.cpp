#include "sim/count/metrics.hpp"

#include <iterator>

namespace simt {

namespace {
using C = Counter;
using F = Fidelity;
constexpr MetricInfo kCatalog[] = {
    {C::GlobalLdRequests, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", F::Exact,
     "warp-level global load instructions with at least one active lane"},
    {C::GlobalLdSectors, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", F::Exact,
     "distinct 32-byte sectors touched by the active lanes of each global load, summed"},
    {C::GlobalStRequests, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", F::Exact,
     "warp-level global store instructions"},
    {C::GlobalStSectors, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", F::Exact,
     "distinct 32-byte sectors written by each global store, summed"},
    {C::GlobalAtomRequests, "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", F::Exact,
     "warp-level global atomic instructions whose result is used (ATOM)"},
    {C::GlobalAtomSectors, "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", F::Exact,
     "per ATOM, each sector once per lane updating its busiest address (same-address updates are serial)"},
    {C::GlobalRedRequests, "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", F::Exact,
     "warp-level global atomics whose result is unused: reductions (RED)"},
    {C::GlobalRedSectors, "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum", F::Exact,
     "per RED, each sector once per lane updating its busiest address"},
    {C::GlobalLdBytes, "simt__global_ld_bytes_requested.sum", F::Simtlab,
     "bytes the active lanes asked for in global loads; / (sectors*32) is the sector efficiency"},
    {C::GlobalStBytes, "simt__global_st_bytes_requested.sum", F::Simtlab, "bytes the active lanes stored"},
    {C::SharedLdInst, "smsp__sass_inst_executed_op_shared_ld.sum", F::Exact, "warp-level shared-memory loads"},
    {C::SharedLdWavefronts, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", F::Exact,
     "passes the shared-memory pipeline needs for the loads (1 per instruction without bank conflicts)"},
    {C::SharedLdConflicts, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", F::Exact,
     "wavefronts beyond the ideal: extra passes caused by bank conflicts on loads"},
    {C::SharedStInst, "smsp__sass_inst_executed_op_shared_st.sum", F::Exact, "warp-level shared-memory stores"},
    {C::SharedStWavefronts, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", F::Exact,
     "passes the shared-memory pipeline needs for the stores"},
    {C::SharedStConflicts, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", F::Exact,
     "extra store passes caused by bank conflicts"},
    {C::SharedAtomInst, "smsp__sass_inst_executed_op_shared_atom.sum", F::Exact, "warp-level shared-memory atomics"},
    {C::AtomicHotRounds, "simt__global_atomic_hot_rounds.max", F::Simtlab,
     "global atomic sector rounds (the op_atom/op_red sectors) in the busiest 512-byte block of addresses, which the "
     "L2 applies one after another"},
    {C::AtomicBlocks, "simt__global_atomic_blocks.sum", F::Simtlab, "512-byte blocks of addresses the global atomics touch"},
    {C::FAdd, "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", F::Exact,
     "thread-level FP32 add/subtract instructions"},
    {C::FMul, "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", F::Exact, "thread-level FP32 multiplies"},
    {C::FFma, "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", F::Exact,
     "thread-level FP32 fused multiply-adds (only where the source says fmaf)"},
    {C::DAdd, "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum", F::Exact, "thread-level FP64 adds"},
    {C::DMul, "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum", F::Exact, "thread-level FP64 multiplies"},
    {C::DFma, "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum", F::Exact, "thread-level FP64 fused multiply-adds"},
    {C::FDiv, "simt__thread_inst_fdiv.sum", F::Simtlab,
     "FP32 divisions in the source (the GPU runs each as a short sequence of FFMA/MUFU instructions)"},
    {C::DDiv, "simt__thread_inst_ddiv.sum", F::Simtlab, "FP64 divisions in the source"},
    {C::FSqrt, "simt__thread_inst_fsqrt.sum", F::Simtlab, "FP32 square roots in the source"},
    {C::DSqrt, "simt__thread_inst_dsqrt.sum", F::Simtlab, "FP64 square roots in the source"},
    {C::HAdd, "smsp__sass_thread_inst_executed_op_hadd_pred_on.sum", F::Exact,
     "thread-level fp16/bf16 add/subtract instructions (HADD2: a __half2 add is one instruction per lane)"},
    {C::HMul, "smsp__sass_thread_inst_executed_op_hmul_pred_on.sum", F::Exact,
     "thread-level fp16/bf16 multiplies (HMUL2)"},
    {C::HFma, "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum", F::Exact,
     "thread-level fp16/bf16 fused multiply-adds (HFMA2)"},
    {C::HAdd2, "simt__thread_inst_hadd2.sum", F::Simtlab,
     "of the hadd instructions, those on packed pairs (__half2, __nv_bfloat162): two results each"},
    {C::HMul2, "simt__thread_inst_hmul2.sum", F::Simtlab, "of the hmul instructions, those on packed pairs"},
    {C::HFma2, "simt__thread_inst_hfma2.sum", F::Simtlab, "of the hfma instructions, those on packed pairs"},
    {C::WarpInst, "simt__warp_inst_counted.sum", F::Simtlab,
     "warp-level executions of the instructions simtlab counts (FP arithmetic, memory, warp collectives)"},
    {C::ThreadInst, "simt__thread_inst_counted.sum", F::Simtlab,
     "the same at thread level; thread/warp is the average number of active lanes (32 = no divergence)"},
    {C::WarpCollectives, "simt__warp_collectives.sum", F::Simtlab,
     "warp-level shuffles, votes and __syncwarp executed"},
    {C::WarpBarriers, "simt__warp_barriers.sum", F::Simtlab,
     "__syncthreads() executed, counted once per warp of the block (as warp-level instructions are)"},
    {C::DramReadBytes, "dram__bytes_read.sum", F::Estimate,
     "compulsory DRAM reads: each 32-byte sector the launch reads before writing it, once"},
    {C::DramWriteBytes, "dram__bytes_write.sum", F::Estimate,
     "compulsory DRAM writes: each 32-byte sector the launch writes, once"},
    {C::InstExecuted, "smsp__inst_executed.sum", F::Estimate,
     "warp-level SASS instructions of every kind (integer, control, memory, FP), estimated per basic block by the "
     "compiler front end; 0 for code the pass did not build (`simt bench`'s plain copies)"},
    {C::ThreadInstExecuted, "smsp__thread_inst_executed.sum", F::Estimate,
     "the same at thread level (each active lane once)"},
    {C::TensorTf32Flops, "simt__tensor_tf32_flops.sum", F::Simtlab,
     "FLOPs on the tensor cores with TF32 inputs (library GEMMs, closed form, and wmma::mma_sync: 2 x m x n x k)"},
    {C::Tensor16Flops, "simt__tensor_16bit_flops.sum", F::Simtlab,
     "FLOPs on the tensor cores with fp16/bf16 inputs (library GEMMs and wmma::mma_sync: 2 x m x n x k)"},
    {C::TensorInst, "sm__inst_executed_pipe_tensor.sum", F::Exact,
     "warp-level tensor-pipe instructions (HMMA, IMMA) of wmma::mma_sync, as many per call as sm_90's SASS has"},
    {C::TensorInt8Ops, "simt__tensor_int8_ops.sum", F::Simtlab,
     "integer multiply-adds x 2 on the tensor cores with s8/u8 inputs (wmma::mma_sync: 2 x m x n x k)"},
    {C::SysmemReadBytes, "simt__sysmem_bytes_read.sum", F::Estimate,
     "page-locked host memory a kernel reads (zero-copy), over the host link: each 32-byte sector the launch reads "
     "before writing it, once (ncu: lts__t_sectors_aperture_sysmem_op_read x 32, with L2 hits)"},
    {C::SysmemWriteBytes, "simt__sysmem_bytes_write.sum", F::Estimate,
     "page-locked host memory a kernel writes, over the host link: each 32-byte sector the launch writes, once"},
    {C::CarriedChainClk, "simt__carried_chain_clk.sum", F::Estimate,
     "clocks a warp waits on loop-carried dependencies (an accumulator's FFMA, a running max and its rescale, an "
     "index divided per dimension), per iteration the longest chain from a loop header's value back to itself at "
     "the H200's measured latencies, summed over iterations (the busiest lane's) and warps"},
    {C::StraightChainClk, "simt__straight_chain_clk.sum", F::Estimate,
     "clocks a warp waits on the longest chain of dependent operations outside loops (unrolled code, an index "
     "computed dimension by dimension; loads not included), at the same latencies, once per warp, summed over "
     "warps"},
    {C::LoadUseChainClk, "simt__load_use_chain_clk.sum", F::Estimate,
     "clocks a warp waits after each iteration's global loads in a loop whose loads are not issued ahead (its body "
     "branches): per iteration the longest chain of dependent operations from a loaded value to the end of the "
     "iteration, warp shuffles included, at the same latencies, summed over iterations (the busiest lane's) and "
     "warps"},
    {C::GlobalLdRereadSectors, "simt__ld_sectors_warp_reread.sum", F::Simtlab,
     "global load sectors that the same warp's previous load at the same instruction touched too: a thread walking "
     "its own row re-reads each sector for several iterations, from L1 on the GPU"},
    {C::GlobalL1DataCycles, "simt__l1_data_cycles.sum", F::Simtlab,
     "clocks L1 spends serving the lines of global loads, stores and atomics: per warp instruction a line a clock, "
     "two where their sectors sit at different places in the line (the larger of half its lines and the lines "
     "that want one place)"},
};

// The catalog lists every counter once, in the enum's order, so that the counter
// of entry i is Counter(i): checked here, at compile time.
constexpr bool catalog_in_enum_order() {
  if (std::size(kCatalog) != static_cast<std::size_t>(kCounterCount)) return false;
  for (std::size_t i = 0; i < std::size(kCatalog); ++i)
    if (static_cast<std::size_t>(kCatalog[i].counter) != i) return false;
  return true;
}
static_assert(catalog_in_enum_order(), "sim/count/metrics.cpp: one catalog entry per Counter, in enum order");

constexpr DerivedMetricInfo kDerived[] = {
    {"dram__bytes.sum", F::Estimate, "dram__bytes_read.sum + dram__bytes_write.sum",
     [](const Counters& c) { return c.dram_bytes(); }},
    {"simt__flops.sum", F::Simtlab, "fadd + fmul + 2 x ffma + dadd + dmul + 2 x dfma + hadd + hmul + 2 x hfma + (the same for packed pairs) "
     "(thread-level, pred_on)",
     [](const Counters& c) { return c.flops(); }},
};

}  // namespace

std::span<const MetricInfo> metric_catalog() { return kCatalog; }
std::span<const DerivedMetricInfo> derived_metric_catalog() { return kDerived; }

const char* fidelity_name(Fidelity f) {
  switch (f) {
    case Fidelity::Exact: return "exact";
    case Fidelity::Estimate: return "estimate";
    case Fidelity::Simtlab: return "simtlab";
  }
  return "?";
}

}  // namespace simt
