// A __global__ function called from host code like a plain function (llm.c's
// benchmark_kernel does `kernel(args...)` through a function pointer): with nvcc that
// calls the kernel's host stub, which finds no launch configuration and launches
// nothing. simtlab gives every kernel the same behaviour in two steps:
//  - at the start of the pipeline, kernels are marked noinline, so no host caller
//    gets a copy of a kernel's body, and given an opaque call at their entry, so that
//    no host call of a kernel is deleted as having no effect (an empty kernel);
//  - at the end, after the kernel's own body is optimized (so its counters are the
//    same as without this step), its entry returns at once when it is not running on
//    a simulated thread (that check replaces the opaque call).
#pragma once
#include <llvm/IR/PassManager.h>

namespace simt::pass {

struct KeepKernelsOutOfLine : llvm::PassInfoMixin<KeepKernelsOutOfLine> {
  llvm::PreservedAnalyses run(llvm::Module& m, llvm::ModuleAnalysisManager&);
  static bool isRequired() { return true; }
};

struct ReturnWhenCalledFromHost : llvm::PassInfoMixin<ReturnWhenCalledFromHost> {
  llvm::PreservedAnalyses run(llvm::Module& m, llvm::ModuleAnalysisManager&);
  static bool isRequired() { return true; }
};

}  // namespace simt::pass
