// A GPU's integer division does not trap. nvcc builds x / d and x % d from a
// reciprocal and corrections, and those return a value for x / 0, x % 0 and
// INT_MIN / -1, where x86's DIV/IDIV raise SIGFPE and the simulated program dies with
// its output. So each integer division of device code that could trap divides by 1
// instead and then takes the H200's value (nvcc 13, -O3; tests/cuda/int_division_probe.cu,
// docs/validation/h200-int-division.md):
//   32 bits and narrower: x / 0 = x % 0 = all ones (-1, 0xFFFFFFFF);
//   64 bits: nvcc takes a 32-bit path when the high halves of both operands are zero,
//     then x / 0 = x % 0 = 0x00000000FFFFFFFF, otherwise all ones;
//   signed: MIN / -1 = MIN and MIN % -1 = 0 (what MIN / 1 and MIN % 1 give).
// Runs after the instruction estimate (count_insts.cpp), so its instructions are the
// simulator's, not the kernel's: nvcc's sequence already gives these values.
// Vector divisions are left alone (no vectorising: clang makes them only from vector
// types in the source).
#pragma once
#include <llvm/IR/Function.h>

namespace simt::pass {

void guard_int_divisions(llvm::Function& f);

}  // namespace simt::pass
