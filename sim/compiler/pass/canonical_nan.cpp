#include "canonical_nan.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>

#include <vector>

namespace simt::pass {

using namespace llvm;

namespace {

bool single_precision(const Type* t) { return t->getScalarType()->isFloatTy(); }

// Operations that compute a new value (not sign flips, selects or loads, which move
// bits unchanged on the GPU too).
bool makes_nans(const Instruction& i) {
  switch (i.getOpcode()) {
    case Instruction::FAdd: case Instruction::FSub: case Instruction::FMul: case Instruction::FDiv:
    case Instruction::FRem: case Instruction::FPTrunc:
      return true;
    default: break;
  }
  if (const auto* call = dyn_cast<IntrinsicInst>(&i)) {
    switch (call->getIntrinsicID()) {
      case Intrinsic::fma: case Intrinsic::fmuladd: case Intrinsic::sqrt: return true;
      default: break;
    }
  }
  return false;
}

}  // namespace

void canonicalize_nans(Function& f) {
  std::vector<Instruction*> ops;
  for (Instruction& i : instructions(f))
    if (single_precision(i.getType()) && makes_nans(i)) ops.push_back(&i);
  for (Instruction* i : ops) {
    IRBuilder<> b(i->getNextNode());
    Value* is_nan = b.CreateFCmpUNO(i, i);
    Constant* gpu_nan = ConstantFP::get(i->getType(), APFloat(APFloat::IEEEsingle(), APInt(32, 0x7fffffffu)));
    Value* canonical = b.CreateSelect(is_nan, gpu_nan, i);
    i->replaceUsesWithIf(canonical, [&](Use& u) { return u.getUser() != is_nan && u.getUser() != canonical; });
  }
}

}  // namespace simt::pass
