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
  // A select between the result and the GPU's NaN on an unordered self-comparison:
  // it stays among the FP registers (cmpunordss and a mask on x86), where the same
  // test on the value's bits as integers moved the result to an integer register and
  // back, on the dependency chain of every accumulation (docs/perf-log.md). A select
  // moves bits unchanged, so folding it to the result would be wrong whatever LLVM
  // assumes of NaN payloads; tests/frontend/nan_bits_loops.cu checks that code
  // generation keeps it in unrolled register loops.
  for (Instruction* i : ops) {
    IRBuilder<> b(i->getNextNode());
    Constant* gpu_nan = ConstantFP::get(i->getType(), APFloat(APFloat::IEEEsingle(), APInt(32, 0x7fffffffu)));
    Value* is_nan = b.CreateFCmpUNO(i, i);
    Value* canonical = b.CreateSelect(is_nan, gpu_nan, i);
    for (Value* step : {is_nan, canonical}) mark(step);
    i->replaceUsesWithIf(canonical, [&](Use& u) { return u.getUser() != is_nan && u.getUser() != canonical; });
  }
}

}  // namespace simt::pass
