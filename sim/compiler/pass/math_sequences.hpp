// The FP32/FP64 instructions nvcc emits for one division, square root or call of a
// CUDA math function, measured on the H200 with --fmad=false
// (tests/cuda/math_sequences_main.cu; docs/counters.md, "Math functions"). The pass
// counts each such operation as its sequence, so a kernel's FADD/FMUL/FFMA equal ncu's.
#pragma once
#include <llvm/ADT/StringRef.h>
#include <llvm/IR/Instruction.h>

#include <utility>
#include <vector>

namespace simt::pass {

// (operation, how many) pairs, in device_code.hpp's Fp numbering.
using FpSequence = std::vector<std::pair<unsigned, unsigned>>;

// The sequence an instruction stands for beyond its own count (an fdiv's FFMAs, a
// call of expf), or an empty one.
FpSequence math_sequence(const llvm::Instruction& i);

}  // namespace simt::pass
