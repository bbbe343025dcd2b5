// Which functions of a module are device code (docs/frontend.md, "How device
// code is told from host code"), shared by the pass's two steps.
#pragma once
#include "sites.hpp"

#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Module.h>

#include <set>
#include <string>
#include <vector>

namespace simt::pass {

// The values of simt::MemOp and simt::FpOp (sim/types/events.hpp).
enum Mem : unsigned { Load = 0, Store = 1, Atomic = 2, Reduction = 3 };
enum Fp : unsigned { FAdd = 0, FMul = 1, FFma = 2, DAdd = 3, DMul = 4, DFma = 5, FDiv = 6, DDiv = 7, FSqrt = 8, DSqrt = 9 };

// simtlab's CUDA header defines __simt_runtime_header as its own path,
// .../sim/compiler/include/cuda_runtime.h; its root's sim/ holds simtlab's code.
// Empty when the module does not include simtlab's headers.
std::string runtime_prefix(const llvm::Module& m);

// What simtlab's CUDA keywords marked: __global__ and __device__ functions,
// __device__ and __constant__ variables. They expand to annotate attributes,
// which clang lists in llvm.global.annotations.
struct Annotated {
  std::vector<llvm::Function*> functions;  // __global__ and __device__, with a body
  std::vector<llvm::Function*> kernels;    // of which __global__
  std::set<const llvm::GlobalVariable*> device_variables, constant_variables;
};
Annotated annotated(llvm::Module& m);

// The runtime's entry point NAME: NAME_inline where simtlab's headers define it
// (inlined later), else the library's out-of-line NAME.
llvm::FunctionCallee entry_point(llvm::Module& m, const std::string& name, llvm::FunctionType* type);

// Device code: the annotated functions and everything they call that is defined
// in this module and is not simtlab's own machinery.
// `helpers`, when given, receives the functions of simtlab's headers that device code
// calls out of line (and what they call in turn): their accesses are not the
// user's, but they too may only reach device memory through its host mapping.
std::set<llvm::Function*> device_functions(const Annotated& marked, const RuntimeFiles& runtime,
                                           std::set<llvm::Function*>* helpers = nullptr);

// Gives an inserted call a debug location when the instruction it instruments has
// none (optimizations drop them, e.g. on merged loads): line 0 in the function's
// own subprogram. A call without one in a function with debug info would be inlined
// with its callee's locations left pointing at the callee, which breaks the DWARF
// (clang crashed on CUB's BlockReduce before this).
void ensure_location(llvm::CallBase& call);

}  // namespace simt::pass
