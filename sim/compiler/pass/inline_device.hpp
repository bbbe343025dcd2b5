// nvcc inlines __device__ functions into their callers (NVVM's inliner takes nearly
// all of them), and then folds what became constant: a helper `lo + (hi - lo) * t`
// called with 0 and 1000 executes no `hi - lo` on the GPU. clang's inliner keeps a
// helper called from several kernels out of line, so its operations ran, and were
// counted, at run time. At the start of the pipeline every __device__ function that
// is not __noinline__ is marked always-inline, as nvcc would inline it; kernels stay
// out of line (host_entry.hpp).
#pragma once
#include <llvm/IR/PassManager.h>

namespace simt::pass {

struct InlineDeviceFunctions : llvm::PassInfoMixin<InlineDeviceFunctions> {
  llvm::PreservedAnalyses run(llvm::Module& m, llvm::ModuleAnalysisManager&);
  static bool isRequired() { return true; }
};

}  // namespace simt::pass
