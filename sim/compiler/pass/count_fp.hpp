// The floating-point step of simtlab's pass (count_fp.cpp).
#pragma once
#include <llvm/IR/PassManager.h>

namespace simt::pass {

// Counts each fadd/fsub/fmul/fdiv/fma/sqrt of device code where the source has it,
// at the start of the pipeline: later optimizations may sink an operation into a
// branch (only lane 0 then executes it) or hoist it out of a loop, which nvcc
// does not do to the SASS the counters are checked against (docs/frontend.md).
struct CountFpPass : llvm::PassInfoMixin<CountFpPass> {
  llvm::PreservedAnalyses run(llvm::Module& m, llvm::ModuleAnalysisManager&);
  static bool isRequired() { return true; }
};
inline CountFpPass count_fp_pass() { return {}; }

// The counts stay llvm.annotation calls the optimizer can see past (they touch no
// program memory, and cost nothing to the loop unroller) until the end of the
// pipeline, where this binds them to the runtime's hook.
void bind_fp_counts(llvm::Module& m);

}  // namespace simt::pass
