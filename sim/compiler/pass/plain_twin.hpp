// Each kernel's uncounted twin (plain_twin.cpp), for the blocks a sampled launch runs
// without counting (sim/shortcuts/sampling.hpp).
#pragma once
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>

#include <vector>

namespace simt::pass {

// A copy of `kernel` taken before it is instrumented, with its FP counts removed: the
// caller makes its accesses go through the host mapping only (translated, not
// counted or checked). Barriers, collectives and atomics stay the runtime's calls.
llvm::Function* make_plain_twin(llvm::Function& kernel);

// The kernel's first act: when the runtime has set __simt_plain_block for this
// block, it hands its arguments to the twin and returns.
void dispatch_to_twin(llvm::Function& kernel, llvm::Function& twin);

// A constructor that names the kernels that have a twin (sim/shortcuts/sampling.hpp).
void register_twins(llvm::Module& m, const std::vector<llvm::Function*>& kernels);

// A twin's access site remembers the last sector it gave the DRAM estimate, in a
// local of the twin made here (all ones: none yet): the next access in the same
// sector (a loop's next element) needs no look at the launch's sector flags.
llvm::AllocaInst* last_sector_slot(llvm::Function& twin);

// After the entry points are inlined, those locals become registers: the pass
// runs after the optimizer, which would otherwise have done it.
struct PromoteLastSectorSlots : llvm::PassInfoMixin<PromoteLastSectorSlots> {
  llvm::PreservedAnalyses run(llvm::Module& m, llvm::ModuleAnalysisManager&);
  static bool isRequired() { return true; }
};

}  // namespace simt::pass
