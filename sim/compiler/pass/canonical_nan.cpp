#include "canonical_nan.hpp"
#include "pass_options.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>

#include <cstdlib>
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

constexpr const char* kStep = "simt.canonical_nan";

void mark(Value* v) {
  if (auto* i = dyn_cast<Instruction>(v)) i->setMetadata(kStep, MDNode::get(i->getContext(), {}));
}

}  // namespace

bool canonical_nan_step(const Instruction& i) { return i.getMetadata(kStep) != nullptr; }

void canonicalize_nans(Function& f) {
  if (pass_options().pass_no_canonical_nan) return;  // to measure what it costs (docs/perf-log.md)
  std::vector<Instruction*> ops;
  for (Instruction& i : instructions(f))
    if (single_precision(i.getType()) && makes_nans(i)) ops.push_back(&i);
  // On the value's bits: LLVM treats a NaN's payload as unspecified, so a select on
  // an FP comparison may be folded away by the code generator; integer operations
  // on the bits may not.
  for (Instruction* i : ops) {
    IRBuilder<> b(i->getNextNode());
    Type* bits_type = i->getType()->isVectorTy()
                          ? static_cast<Type*>(VectorType::get(b.getInt32Ty(), cast<VectorType>(i->getType())))
                          : b.getInt32Ty();
    Value* bits = b.CreateBitCast(i, bits_type);
    Value* magnitude = b.CreateAnd(bits, ConstantInt::get(bits_type, 0x7fffffffu));
    Value* is_nan = b.CreateICmpUGT(magnitude, ConstantInt::get(bits_type, 0x7f800000u));
    Value* canonical_bits = b.CreateSelect(is_nan, ConstantInt::get(bits_type, 0x7fffffffu), bits);
    for (Value* step : {magnitude, is_nan, canonical_bits}) mark(step);
    Value* canonical = b.CreateBitCast(canonical_bits, i->getType());
    i->replaceUsesWithIf(canonical, [&](Use& u) { return u.getUser() != bits; });
  }
}

}  // namespace simt::pass
