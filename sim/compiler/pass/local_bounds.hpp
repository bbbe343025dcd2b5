// A thread's local arrays are not instrumented (the GPU's registers and local memory:
// frontend.md), so an index far past a local array's end would write the fiber's stack
// unseen, or fault without its line. Each load and store of device code into a local
// (an alloca of known size) at an offset the compiler cannot prove inside it gets a
// compare; past the end, __simt_local_out_of_bounds_at names the line, the array's size
// and the offset, and fails the launch with cudaErrorIllegalAddress (docs/reliability.md).
// Inserted after the instruction estimate and the FP folding (count_insts.cpp), as the
// integer-division guards are: the compares are the simulator's, not the kernel's, and no
// optimization runs on the kernel's code before they exist, so no counter can change.
// A kernel's plain twin (sampled launches) has none.
#pragma once
#include "sites.hpp"

#include <llvm/IR/Function.h>
#include <llvm/IR/Instruction.h>

#include <vector>

namespace simt::pass {

// `accesses`: the user's loads and stores of f (simtlab's own are not checked).
// Returns how many checks it added.
unsigned guard_local_bounds(llvm::Function& f, const std::vector<llvm::Instruction*>& accesses, SiteTable& sites);

}  // namespace simt::pass
