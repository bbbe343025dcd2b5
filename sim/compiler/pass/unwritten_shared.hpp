// A __shared__ array that nothing in the program writes is a thread_local the optimizer
// sees only read: it folds every read to the variable's zero initializer and removes
// the array, so the simulator's uninitialised-read check (sim/exec/interval.cpp) never
// sees an access. On a GPU such a read returns whatever the memory held. Before any
// optimization this pass finds those arrays and puts a marker before each read,
// __simt_site_unwritten_shared_read(name), which the instrumenter binds to its line
// (instrument.cpp: bind_marked_calls); at run time it reports the read as the
// uninitialised-read check does, with kernel, block, thread and line.
// An array whose address reaches a call, an atomic, a store or an integer may be written
// there: it is left to the run-time check.
#pragma once
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>

namespace simt::pass {

// Returns how many reads it marked.
unsigned mark_unwritten_shared_reads(llvm::Module& m);

struct MarkUnwrittenSharedReads : llvm::PassInfoMixin<MarkUnwrittenSharedReads> {
  llvm::PreservedAnalyses run(llvm::Module& m, llvm::ModuleAnalysisManager&) {
    return mark_unwritten_shared_reads(m) ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

}  // namespace simt::pass
