// The instruction estimate of the compiler front end (docs/counters.md,
// "Instructions"): every basic block of device code is charged the SASS
// instructions its IR instructions would become, recorded by one inlined call per
// group of blocks that always run together.
#pragma once
#include "fold_fp_counts.hpp"
#include "sites.hpp"
#include "unrolled_loops.hpp"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>

#include <map>
#include <set>

namespace simt::pass {

// The SASS instructions one IR instruction is estimated to become on sm_90 (nvcc
// 13, --fmad=false): 0 for what folds into other instructions or is simtlab's own
// machinery, 1 for most, more for sequences (integer division, IEEE fdiv/sqrt).
// With `loops`, a division by a value fixed for its loop is charged without the
// reciprocal nvcc hoists out of the loop.
unsigned sass_estimate(const llvm::Instruction& i, const RuntimeFiles& runtime, const llvm::LoopInfo* loops = nullptr);

// The estimate within one function, in quarters of an instruction: the loop
// control of innermost loops counts a quarter (nvcc unrolls them by 4).
class SassEstimate {
 public:
  explicit SassEstimate(const RuntimeFiles& runtime) : runtime_(runtime) {}
  void find_loop_control(const llvm::LoopInfo& loops);
  // The __shared__ accesses nvcc folds into an earlier one's LDS.64/LDS.128 (or STS):
  // charged nothing (pass/fused_shared.hpp).
  void find_fused_shared(const llvm::Function& f);
  // What the loops nvcc unrolls completely do without: charged nothing
  // (pass/unrolled_loops.hpp).
  void find_unrolled(const llvm::Function& f, const llvm::LoopInfo& loops) { unrolled_.compute(f, loops); }
  unsigned quarters(const llvm::Instruction& i) const;
  // What nvcc hoists into loop preheaders (the reciprocal of a divisor fixed for
  // the loop), in quarters, per preheader; after find_loop_control.
  std::map<const llvm::BasicBlock*, unsigned> hoisted_reciprocals(const llvm::Function& f) const;

 private:
  const RuntimeFiles& runtime_;
  const llvm::LoopInfo* loops_ = nullptr;
  std::set<const llvm::Instruction*> quarter_;
  std::set<const llvm::Instruction*> fused_;
  UnrolledLoops unrolled_;
};

class BlockCounter {
 public:
  BlockCounter(llvm::Module& m, const RuntimeFiles& runtime, SiteTable& sites);
  // Puts __simt_block(q, site) at the head of each group of control-equivalent
  // blocks (same executions per thread), q = the group's estimate in quarters.
  // Then folds the FP counts that run as often as a group into its record.
  void run(llvm::Function& f);
  void finish() { folder_.emit_registration(); }

 private:
  void record_chains(const llvm::Function& f, const llvm::LoopInfo& loops,
                     const std::map<llvm::BasicBlock*, llvm::Constant*>& group_site);

  const RuntimeFiles& runtime_;
  SiteTable& sites_;
  SassEstimate estimate_;
  llvm::FunctionCallee hook_;
  FpCountFolder folder_;
  unsigned next_ = 0;  // numbers blocks: each block is its own site
  bool debug_;         // pass_debug_insts: print each instruction's estimate (quarters)
};

}  // namespace simt::pass
