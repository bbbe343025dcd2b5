#include "count_fp.hpp"

#include "device_code.hpp"
#include "math_sequences.hpp"
#include "sites.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <tuple>
#include <vector>

namespace simt::pass {

using namespace llvm;

namespace {

// A float multiply with the constant 2.0 as one operand.
bool times_two(const Instruction& i) {
  for (const Value* v : i.operands())
    if (const auto* c = dyn_cast<ConstantFP>(v); c && c->isExactlyValue(2.0)) return true;
  return false;
}

// The operation an instruction counts as, or false.
bool fp_kind(const Instruction& i, unsigned& op) {
  Type* scalar = i.getType()->getScalarType();
  if (!scalar->isFloatTy() && !scalar->isDoubleTy()) return false;  // half: with the fp16 work
  const bool single = scalar->isFloatTy();
  switch (i.getOpcode()) {
    case Instruction::FAdd:
    case Instruction::FSub: op = single ? FAdd : DAdd; return true;
    case Instruction::FMul:
      // nvcc emits x * 2.0f as FADD x, x (same bits; measured on the H200,
      // docs/validation/h200-frontend.md), so that is what the GPU counts.
      op = single && times_two(i) ? FAdd : single ? FMul : DMul;
      return true;
    case Instruction::FDiv: op = single ? FDiv : DDiv; return true;
    default: break;
  }
  if (const auto* in = dyn_cast<IntrinsicInst>(&i)) {
    switch (in->getIntrinsicID()) {
      case Intrinsic::fma:
      case Intrinsic::fmuladd: op = single ? FFma : DFma; return true;
      case Intrinsic::sqrt: op = single ? FSqrt : DSqrt; return true;
      default: break;
    }
  }
  return false;
}

}  // namespace

// The counting call as the optimizer sees it: a declaration that touches only
// memory the program cannot see. Were it the runtime's hook (a store through the
// thread's state, a call on its slow path), every call would look to the optimizer
// like a write to any memory, and the loads around an FP operation could no longer
// be merged or hoisted as nvcc merges them (HW4's LayerNorm would read s_mean
// again after every subtraction). bind_fp_counts() swaps in the hook at the end.
FunctionCallee deferred_fp_count(Module& m) {
  LLVMContext& c = m.getContext();
  FunctionCallee callee = m.getOrInsertFunction(
      kDeferredFpCount, FunctionType::get(Type::getVoidTy(c), {Type::getInt32Ty(c), Type::getInt8PtrTy(c)}, false));
  if (auto* f = dyn_cast<Function>(callee.getCallee())) {
    f->addFnAttr(Attribute::InaccessibleMemOnly);
    f->addFnAttr(Attribute::NoUnwind);
    f->addFnAttr(Attribute::WillReturn);
  }
  return callee;
}

void bind_fp_counts(Module& m) {
  Function* deferred = m.getFunction(kDeferredFpCount);
  if (!deferred) return;
  FunctionCallee hook = entry_point(m, "__simt_fp", deferred->getFunctionType());
  for (User* u : make_early_inc_range(deferred->users()))
    if (auto* call = dyn_cast<CallInst>(u)) {
      call->setCalledFunction(hook);
      call->setAttributes(AttributeList());
    }
  if (deferred->use_empty()) deferred->eraseFromParent();
}

PreservedAnalyses CountFpPass::run(Module& m, ModuleAnalysisManager&) {
  RuntimeFiles runtime(runtime_prefix(m));
  Annotated marked = annotated(m);
  SiteTable sites(m, runtime);
  FunctionCallee count = deferred_fp_count(m);
  for (Function* f : device_functions(marked, runtime)) {
    // (instruction, operation, how many): an operation counts once, plus the
    // instructions nvcc expands it into (a division's FFMAs, a call of expf).
    std::vector<std::tuple<Instruction*, unsigned, unsigned>> todo;
    for (Instruction& i : instructions(*f)) {
      if (runtime.uninstrumented_location(i.getDebugLoc().get())) continue;
      unsigned op = 0;
      if (fp_kind(i, op)) todo.push_back({&i, op, 1});
      for (auto [seq_op, n] : math_sequence(i)) todo.push_back({&i, seq_op, n});
    }
    // The slow paths' extra instructions, counted only when the thread takes them.
    std::vector<Instruction*> calls;
    for (Instruction& i : instructions(*f))
      if (isa<CallInst>(i) && !runtime.uninstrumented_location(i.getDebugLoc().get())) calls.push_back(&i);
    for (Instruction* i : calls) {
      SlowPath slow = math_slow_path(*i);
      if (!slow.condition) continue;
      Instruction* then = SplitBlockAndInsertIfThen(slow.condition, i, false);
      IRBuilder<> b(then);
      for (auto [op, n] : slow.extra) {
        Constant* site = sites.site_of(*i, "fp" + std::to_string(op));
        for (unsigned k = 0; k < n; ++k) {
          CallInst* count_call = b.CreateCall(count, {b.getInt32(op), site});
          count_call->setDebugLoc(i->getDebugLoc());
          ensure_location(*count_call);
        }
      }
    }
    for (auto [i, op, n] : todo) {
      const unsigned lanes = i->getType()->isVectorTy() ? cast<FixedVectorType>(i->getType())->getNumElements() : 1;
      IRBuilder<> b(i);
      Constant* site = sites.site_of(*i, "fp" + std::to_string(op));
      for (unsigned k = 0; k < lanes * n; ++k) {
        CallInst* call = b.CreateCall(count, {b.getInt32(op), site});
        call->setDebugLoc(i->getDebugLoc());
        ensure_location(*call);
      }
    }
    use_cuda_math(*f);
  }
  sites.emit_registration();
  return sites.size() ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace simt::pass
