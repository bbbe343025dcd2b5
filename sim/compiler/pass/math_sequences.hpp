// The FP32/FP64 instructions nvcc emits for one division, square root or call of a
// CUDA math function, measured on the H200 with --fmad=false
// (tests/cuda/math_sequences_main.cu; docs/counters.md, "Math functions"). The pass
// counts each such operation as its sequence, so a kernel's FADD/FMUL/FFMA equal ncu's.
#pragma once
#include <llvm/ADT/StringRef.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Instruction.h>

#include <utility>
#include <vector>

namespace simt::pass {

// (operation, how many) pairs, in device_code.hpp's Fp numbering.
using FpSequence = std::vector<std::pair<unsigned, unsigned>>;

// The sequence an instruction stands for beyond its own count (an fdiv's FFMAs, a
// call of expf), or an empty one.
FpSequence math_sequence(const llvm::Instruction& i);

// The instructions a fast-math intrinsic adds when its argument is out of MUFU's
// range, as nvcc 13 emits them for sm_90 (predicated, so ncu counts them only for
// the threads that take the path): `extra` runs when `condition` (built before the
// call) is true. The softmax kernels of the course and of llm.c take the path for
// every masked position: __expf(-1e8).
struct SlowPath {
  FpSequence extra;
  llvm::Value* condition = nullptr;
};
SlowPath math_slow_path(llvm::Instruction& call);

// Points the function's calls of expf, exp2f, logf and tanhf at simtlab's versions
// with CUDA's bits (sim/math); run after counting, which reads the callee's name.
void use_cuda_math(llvm::Function& f);

// Replaces calls of simtlab's CUDA math functions whose arguments became constants
// with the value nvcc folds them to (after inlining: the optimizer's last step).
void fold_constant_cuda_math(llvm::Module& m);

}  // namespace simt::pass
