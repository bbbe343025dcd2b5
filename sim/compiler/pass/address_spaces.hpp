// What nvcc knows and a CPU compiler does not: a kernel's pointer parameters point
// to global memory, and global memory never overlaps a __shared__ variable. On the
// GPU they are different address spaces; here both are plain memory, so without
// help clang must assume a store through a kernel's output pointer may overwrite a
// __shared__ variable and reload it after every such store (HW4's LayerNorm reads
// s_mean and s_var once per thread under nvcc, once per element here: 5x the
// shared wavefronts). This pass states the fact as scoped alias metadata on the
// kernel's accesses, before the optimizer's loop and redundancy passes run, so the
// loads the GPU would not execute are not executed or counted here either.
#pragma once
#include <llvm/IR/PassManager.h>

namespace simt::pass {

struct SeparateAddressSpaces : llvm::PassInfoMixin<SeparateAddressSpaces> {
  llvm::PreservedAnalyses run(llvm::Function& f, llvm::FunctionAnalysisManager&);
  static bool isRequired() { return true; }
};

}  // namespace simt::pass
