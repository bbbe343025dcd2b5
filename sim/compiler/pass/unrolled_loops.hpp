// Loops nvcc unrolls completely: an innermost loop without a barrier whose trip
// count is a constant (a head dimension, a tile width: `for (int c = 0; c < D; ++c)`
// with D a template argument) becomes straight-line code on the GPU, where clang -O2
// for the CPU keeps a loop unrolled 2 or 4 deep. What the copies do without is
// charged nothing by the instruction estimate (docs/counters.md, "Loops nvcc unrolls
// completely"): the loop's compare, branch and induction step; the arithmetic that
// offsets the induction variable (each copy's address is a base register plus an
// immediate); and the loads and stores of a thread's local array indexed only by
// such loops' induction variables and constants, which then lives in registers
// (FlashAttention backward's q, dO and dq rows: ncu counts no local access).
#pragma once
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Function.h>

#include <set>

namespace simt::pass {

// A loop with a __syncthreads() or grid.sync() in it (a reduction's tree): nvcc
// does not unroll it.
bool has_barrier(const llvm::Loop& l);

class UnrolledLoops {
 public:
  void compute(const llvm::Function& f, const llvm::LoopInfo& loops);
  // An instruction the unrolled copies do without.
  bool vanishes(const llvm::Instruction& i) const { return gone_.count(&i) != 0; }

 private:
  std::set<const llvm::Instruction*> gone_;
};

}  // namespace simt::pass
