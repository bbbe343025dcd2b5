// What one simulated thread records while it runs: its memory accesses (to be
// grouped into warp-level instructions later) and its per-site arithmetic counts.
#pragma once
#include <cstdint>

namespace simt {

enum class Space : std::uint8_t { Global, Shared };
// Red: an atomic whose result is unused, which the GPU runs as a reduction (RED) and
// Nsight Compute counts apart (`op_red`); in shared memory both are ATOMS.
enum class MemOp : std::uint8_t { Load, Store, Atomic, Red };
constexpr bool is_atomic(MemOp op) { return op == MemOp::Atomic || op == MemOp::Red; }

// A "site" is the machine-code address of the call that made the access or the
// operation; each site maps to one source line (sim/symbols/symbols.cpp).
using Site = const void*;

// A flag of the compiler front end's site records (sim/symbols/compiler_sites.hpp,
// written by sim/compiler/pass/sites.cpp): every instruction of the site lies outside
// loops of the optimised code — an access a fully unrolled loop copied (each copy runs
// once per thread, all of them in flight together), or one that runs once. Its
// requests per warp are not a chain of dependent rounds.
constexpr std::uint32_t kSiteStraightLine = 1;
// A flag of the same records: a `volatile` load or store (a flag polled by another
// warp). Two threads of different warps may access one word through volatile accesses
// between barriers: relaxed operations, as PTX's memory model treats them, not a data
// race (sim/check/release_acquire.hpp).
constexpr std::uint32_t kSiteVolatile = 2;
// Bits 8-15 of the same records' flags: how many load instructions of the site one
// basic block of the optimised code holds, at most (a fully unrolled copy loop's
// copies, 0 or 1: one), capped at 255. A loop that branches issues the copies of one
// block together, so they wait one round trip, not one each.
constexpr std::uint32_t kSiteCopiesShift = 8;
constexpr std::uint32_t kSiteCopiesMask = 0xFF;
// The high half of the same records' flags: the basic block of the optimised code the
// site's first instruction lies in (its ordinal in the function, modulo 2^16; 0 when
// unknown). In a loop that branches, a load whose block differs from another's is
// issued only after the other block's loads were waited for (a tile copy whose
// elements each take a branch: one round trip each), while the loads of one block
// are in flight together.
constexpr std::uint32_t kSiteBlockShift = 16;
// The `loop` field of the same records: which loop of the optimised code the site
// sits in (an id unique in its module, in the low bits; 0: outside loops), and
// whether that loop's body is one branch-free block without stores to global
// memory. nvcc unrolls such a loop and issues the loads of several iterations
// before the first use (their round trips overlap); a body with branches — a
// data-dependent `if`, an IEEE division's slow path — or a store the next load may
// read keeps each iteration's load behind the previous iteration's work.
// kSiteLoopBatched is about global loads (a store to shared memory does not stop
// them); kSiteLoopSharedBatched about shared accesses (no store at all in the loop).
constexpr std::uint32_t kSiteLoopBatched = 1u << 31;
constexpr std::uint32_t kSiteLoopSharedBatched = 1u << 30;
// With kSiteLoopBatched: the loop is innermost, its body small and its trip count not
// bounded by a small constant. nvcc unrolls it 4 deep and again 4 deep, and issues 16
// iterations' loads before the first use, then a round of 8 and one of 4 for the rest
// (the SASS of layernorm_two_pass_mean, gemv_fp16, attention_bwd_rowdot: 16 LDG, 8,
// 4); a larger body (gemv_fp8's conversions) stays 4 deep.
constexpr std::uint32_t kSiteLoopDeep = 1u << 29;
constexpr std::uint32_t kSiteLoopIdMask = kSiteLoopDeep - 1;

// A record of the pass's simt_block_ops table (sim/exec/block_ops.hpp) that is not an
// FP operation: the loop-carried chain of the loop whose header the record's block
// group is, in tenths of a clock per execution (simt__carried_chain_clk.sum).
constexpr std::uint32_t kCarriedChainOp = 0x10000;
// Likewise the chain of the code outside loops, on the entry block's group, in tenths
// of a clock per execution (simt__straight_chain_clk.sum).
constexpr std::uint32_t kStraightChainOp = 0x10001;
// Likewise the chain after a loop's global loads in a loop nvcc does not batch, on its
// header's group, in tenths of a clock per execution (simt__load_use_chain_clk.sum).
constexpr std::uint32_t kLoadUseChainOp = 0x10002;

// 16 bytes: a kernel makes many of these between two barriers. User-space
// addresses fit in 48 bits, which leaves room for the size, operation and space.
struct MemEvent {
  Site site;
  std::uint64_t packed;

  static MemEvent make(Site site, std::uint64_t addr, std::uint32_t size, MemOp op, Space space) {
    return {site, addr | std::uint64_t(size) << 48 | std::uint64_t(op) << 56 | std::uint64_t(space) << 58};
  }
  std::uint64_t addr() const { return packed & ((std::uint64_t(1) << 48) - 1); }
  std::uint32_t size() const { return static_cast<std::uint32_t>(packed >> 48 & 0xFF); }
  MemOp op() const { return static_cast<MemOp>(packed >> 56 & 3); }
  Space space() const { return static_cast<Space>(packed >> 58 & 1); }
};

// Floating-point operation kinds, in the order of the Nsight Compute metrics
// smsp__sass_thread_inst_executed_op_{fadd,fmul,ffma,dadd,dmul,dfma,hadd,hmul,hfma}_pred_on.
// Division and square root are not single SASS instructions; they are counted on
// their own (docs/counters.md, "Fidelity limits"). HAdd..HFma are fp16/bf16
// instructions on one value per lane; HAdd2..HFma2 the packed ones (__half2,
// __nv_bfloat162): each is one HADD2/HMUL2/HFMA2 per lane to ncu, two results.
enum class FpOp : std::uint8_t {
  FAdd, FMul, FFma, DAdd, DMul, DFma, FDiv, DDiv, FSqrt, DSqrt,
  HAdd, HMul, HFma, HAdd2, HMul2, HFma2,
  Count
};
constexpr int kFpOpCount = static_cast<int>(FpOp::Count);

}  // namespace simt
