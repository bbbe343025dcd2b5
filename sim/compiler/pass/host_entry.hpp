// A __global__ function called from host code like a plain function (llm.c's
// benchmark_kernel does `kernel(args...)` through a function pointer): with nvcc that
// calls the kernel's host stub, which finds no launch configuration and launches
// nothing. This step gives every kernel the same behaviour: at its entry, a kernel
// not running on a simulated thread returns at once.
#pragma once
#include <llvm/IR/PassManager.h>

namespace simt::pass {

struct HostEntryPass : llvm::PassInfoMixin<HostEntryPass> {
  llvm::PreservedAnalyses run(llvm::Module& m, llvm::ModuleAnalysisManager&);
  static bool isRequired() { return true; }
};

}  // namespace simt::pass
