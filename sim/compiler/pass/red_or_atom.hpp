// RED or ATOM: the GPU runs an atomic whose result is unused as a reduction (RED),
// which Nsight Compute files under the `op_red` metrics, and one whose result is used
// as an ATOM (`op_atom`). simtlab's atomics (simt_cuda/device_builtins.h) say which
// through two markers: __simt_atomic_access(p, size, may_reduce), a token for the
// access, and __simt_atomic_value(bits, token) around the result, a call without side
// effects that the optimizer deletes when nothing uses the result. After optimization a
// token without a value marker is a RED (where the operation has a RED form: not
// atomicExch or atomicCAS); each access marker becomes __simt_site_access with op 2
// (atomic) or 3 (reduction), and each value marker its value.
#pragma once
#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>

namespace simt::pass {

// Gives the value marker the attributes that let the optimizer drop it when unused.
void mark_atomic_value_pure(llvm::Module& m);

struct PureAtomicValues : llvm::PassInfoMixin<PureAtomicValues> {
  llvm::PreservedAnalyses run(llvm::Module& m, llvm::ModuleAnalysisManager&) {
    mark_atomic_value_pure(m);
    return llvm::PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

// Rewrites f's markers as above; before the marked calls are bound (instrument.cpp).
void classify_atomics(llvm::Function& f);

}  // namespace simt::pass
