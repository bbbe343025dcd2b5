// The GPU's single-precision arithmetic has one NaN: whatever makes a NaN (0/0,
// inf - inf, a NaN operand), FADD, FMUL, FFMA, MUFU and the division and square-root
// sequences return 0x7fffffff. x86 returns the first NaN operand's bits or, for an
// invalid operation, 0xffc00000 ("default NaN", sign bit set). So that a kernel's NaN
// outputs are the GPU's bits too, each single-precision operation of device code that
// can produce a NaN is followed by a select of the GPU's NaN.
#pragma once
#include <llvm/IR/Function.h>
#include <llvm/IR/Instruction.h>

namespace simt::pass {

void canonicalize_nans(llvm::Function& f);

// Whether an instruction is one of those selects (or their mask and compare): the
// simulator's, not the kernel's, so the instruction estimate charges nothing for it.
bool canonical_nan_step(const llvm::Instruction& i);

}  // namespace simt::pass
