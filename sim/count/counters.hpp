// The counters a launch accumulates, per source site and in total. Their names
// and definitions (Nsight Compute's where one exists) are in sim/count/metrics.cpp and
// docs/counters.md.
#pragma once
#include "sim/types/events.hpp"

#include <array>
#include <cstdint>
#include <iterator>
#include <utility>
#include <unordered_map>

namespace simt {

enum class Counter : int {
  GlobalLdRequests, GlobalLdSectors, GlobalStRequests, GlobalStSectors,
  GlobalAtomRequests, GlobalAtomSectors,
  GlobalRedRequests, GlobalRedSectors,  // atomics whose result is unused: RED on the GPU
  GlobalLdBytes, GlobalStBytes,  // bytes the lanes asked for (vs sectors*32 moved)
  SharedLdInst, SharedLdWavefronts, SharedLdConflicts,
  SharedStInst, SharedStWavefronts, SharedStConflicts,
  SharedAtomInst,
  AtomicHotRounds, AtomicBlocks,  // per launch, not per site: contention (sim/count/atomic_rule.hpp)
  FAdd, FMul, FFma, DAdd, DMul, DFma, FDiv, DDiv, FSqrt, DSqrt,
  HAdd, HMul, HFma,     // fp16/bf16 instructions, scalar or packed (ncu's hadd/hmul/hfma)
  HAdd2, HMul2, HFma2,  // of which packed: two results per lane
  WarpInst, ThreadInst,          // over the instructions simtlab counts
  WarpCollectives,
  WarpBarriers,                   // __syncthreads, once per warp of the block
  DramReadBytes, DramWriteBytes,  // compulsory-traffic estimate
  InstExecuted, ThreadInstExecuted,  // every SASS instruction, estimated by the compiler front end
  // Tensor-core FLOPs of library GEMMs (sim/libs/gemm_launch.cpp) and of wmma::mma_sync:
  // TF32 inputs, and fp16/bf16 inputs.
  TensorTf32Flops, Tensor16Flops,
  // wmma::mma_sync in kernels (sim/count/tensor_ops.hpp): tensor-pipe warp instructions,
  // and the integer operations of s8/u8 products (their FLOPs go to the two above).
  TensorInst, TensorInt8Ops,
  // The compulsory estimate's sectors of page-locked host memory (zero-copy): they
  // cross the host link, not DRAM.
  SysmemReadBytes, SysmemWriteBytes,
  // The compiler front end's loop-carried chains (sim/compiler/pass/carried_chain.hpp):
  // clocks of dependent latency per warp, summed over warps; the chains of the code
  // outside loops, and the chains after the loads of loops nvcc does not batch, the
  // same way.
  CarriedChainClk, StraightChainClk, LoadUseChainClk,
  // Global load sectors a warp's previous load at the same site touched too (L1 hits
  // of a thread walking its own row, sim/count/warp_rereads.hpp).
  GlobalLdRereadSectors,
  // Clocks L1 spends serving global instructions' lines (sim/count/l1_rule.hpp).
  GlobalL1DataCycles,
  Count
};
constexpr int kCounterCount = static_cast<int>(Counter::Count);

struct Counters {
  std::array<std::uint64_t, kCounterCount> v{};
  std::uint64_t& operator[](Counter c) { return v[static_cast<int>(c)]; }
  std::uint64_t operator[](Counter c) const { return v[static_cast<int>(c)]; }
  Counters& operator+=(const Counters& o) {
    for (int i = 0; i < kCounterCount; ++i) v[i] += o.v[i];
    return *this;
  }
  std::uint64_t dram_bytes() const { return (*this)[Counter::DramReadBytes] + (*this)[Counter::DramWriteBytes]; }
  // FLOPs = fadd + fmul + 2 x ffma, FP32 and FP64 (docs/counters.md).
  std::uint64_t flops() const {
    const Counters& c = *this;
    return c[Counter::FAdd] + c[Counter::FMul] + 2 * c[Counter::FFma] + c[Counter::DAdd] +
           c[Counter::DMul] + 2 * c[Counter::DFma] + half_flops();
  }
  // fp16/bf16: a packed instruction gives two results per lane (4 FLOPs for HFMA2).
  std::uint64_t half_flops() const {
    const Counters& c = *this;
    return c[Counter::HAdd] + c[Counter::HMul] + 2 * c[Counter::HFma] + c[Counter::HAdd2] + c[Counter::HMul2] +
           2 * c[Counter::HFma2];
  }
};

using SiteCounters = std::unordered_map<Site, Counters>;

inline Counter fp_counter(std::uint32_t op) {
  return static_cast<Counter>(static_cast<int>(Counter::FAdd) + static_cast<int>(op));
}

// A packed fp16/bf16 operation is also one instruction of ncu's hadd/hmul/hfma.
inline bool packed_half(std::uint32_t op) {
  return op >= static_cast<std::uint32_t>(FpOp::HAdd2) && op <= static_cast<std::uint32_t>(FpOp::HFma2);
}
inline Counter unpacked_counter(std::uint32_t op) {
  return fp_counter(op - (static_cast<std::uint32_t>(FpOp::HAdd2) - static_cast<std::uint32_t>(FpOp::HAdd)));
}

// fp_counter relies on the FP counters following FpOp's order from FAdd on.
constexpr bool fp_counters_follow_fp_ops() {
  constexpr std::pair<FpOp, Counter> pairs[] = {
      {FpOp::FAdd, Counter::FAdd}, {FpOp::FMul, Counter::FMul}, {FpOp::FFma, Counter::FFma},
      {FpOp::DAdd, Counter::DAdd}, {FpOp::DMul, Counter::DMul}, {FpOp::DFma, Counter::DFma},
      {FpOp::FDiv, Counter::FDiv}, {FpOp::DDiv, Counter::DDiv}, {FpOp::FSqrt, Counter::FSqrt},
      {FpOp::DSqrt, Counter::DSqrt}, {FpOp::HAdd, Counter::HAdd}, {FpOp::HMul, Counter::HMul},
      {FpOp::HFma, Counter::HFma}, {FpOp::HAdd2, Counter::HAdd2}, {FpOp::HMul2, Counter::HMul2},
      {FpOp::HFma2, Counter::HFma2}};
  if (std::size(pairs) != static_cast<std::size_t>(FpOp::Count)) return false;
  for (auto [op, counter] : pairs)
    if (static_cast<int>(Counter::FAdd) + static_cast<int>(op) != static_cast<int>(counter)) return false;
  return true;
}
static_assert(fp_counters_follow_fp_ops(), "Counter's FP entries must follow FpOp's order (sim/types/events.hpp)");

}  // namespace simt
