#include "count_fp.hpp"

#include "device_code.hpp"
#include "math_sequences.hpp"
#include "sites.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Support/raw_ostream.h>
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

// The count call's arguments: the operation, its site, and the value it computes
// (bind_fp_counts drops the count if the optimizer folds that value to a constant).
SmallVector<Value*, 3> counted(IRBuilder<>& b, unsigned op, Constant* site, Instruction& i) {
  SmallVector<Value*, 3> args{b.getInt32(op), site};
  if (!i.getType()->isVoidTy()) args.push_back(&i);
  return args;
}

bool is_one(const Value* v) {
  const auto* c = dyn_cast<ConstantFP>(v);
  return c && c->isExactlyValue(1.0);
}
bool is_zero(const Value* v, bool negative) {
  const auto* c = dyn_cast<ConstantFP>(v);
  return c && c->isZero() && c->isNegative() == negative;
}

// Operations NVVM removes before ptxas sees them, found in the PTX of
// tests/cuda/add_zero.cu: x * 1, x - 0, x + (-0), and +0 added to a converted
// integer (which is never -0). clang removes them too, but leaves the value, so the
// count would stay.
bool folded_by_nvcc(const Instruction& i) {
  const Value* a = i.getNumOperands() > 0 ? i.getOperand(0) : nullptr;
  const Value* b = i.getNumOperands() > 1 ? i.getOperand(1) : nullptr;
  switch (i.getOpcode()) {
    case Instruction::FMul: return is_one(a) || is_one(b);
    case Instruction::FSub: return is_zero(b, false);
    case Instruction::FAdd: {
      if (is_zero(a, true) || is_zero(b, true)) return true;
      const Value* other = is_zero(b, false) ? a : is_zero(a, false) ? b : nullptr;
      return other && (isa<SIToFPInst>(other) || isa<UIToFPInst>(other));
    }
    default: return false;
  }
}

}  // namespace

// The counting call as the optimizer sees it: a declaration that touches only
// memory the program cannot see. Were it the runtime's hook (a store through the
// thread's state, a call on its slow path), every call would look to the optimizer
// like a write to any memory, and the loads around an FP operation could no longer
// be merged or hoisted as nvcc merges them (HW4's LayerNorm would read s_mean
// again after every subtraction). bind_fp_counts() swaps in the hook at the end.
// One declaration per type of counted value: __simt_fp_deferred.T(i32 op, i8* site,
// T value), or __simt_fp_deferred(i32 op, i8* site) for a count that carries none.
FunctionCallee deferred_fp_count(Module& m, Type* value) {
  LLVMContext& c = m.getContext();
  std::vector<Type*> params{Type::getInt32Ty(c), Type::getInt8PtrTy(c)};
  std::string name = kDeferredFpCount;
  if (value && !value->isVoidTy()) {
    params.push_back(value);
    std::string type;
    raw_string_ostream os(type);
    value->print(os);
    name += "." + os.str();
  }
  FunctionCallee callee = m.getOrInsertFunction(name, FunctionType::get(Type::getVoidTy(c), params, false));
  if (auto* f = dyn_cast<Function>(callee.getCallee())) {
    f->addFnAttr(Attribute::InaccessibleMemOnly);
    f->addFnAttr(Attribute::NoUnwind);
    f->addFnAttr(Attribute::WillReturn);
  }
  return callee;
}

// Each deferred count carries the value of the operation it counts. nvcc folds an
// operation whose operands became constants once inlined (`hi - lo` of a helper called
// with 1000 and 0); here the optimizer did the same to the value, and the count goes
// with it. The others become the runtime's hook.
void bind_fp_counts(Module& m) {
  LLVMContext& c = m.getContext();
  FunctionCallee hook = entry_point(
      m, "__simt_fp", FunctionType::get(Type::getVoidTy(c), {Type::getInt32Ty(c), Type::getInt8PtrTy(c)}, false));
  std::vector<Function*> deferred;
  for (Function& f : m)
    if (f.isDeclaration() && f.getName().startswith(kDeferredFpCount)) deferred.push_back(&f);
  for (Function* f : deferred) {
    for (User* u : make_early_inc_range(f->users()))
      if (auto* call = dyn_cast<CallInst>(u)) {
        if (call->arg_size() > 2 && isa<Constant>(call->getArgOperand(2))) {
          call->eraseFromParent();
          continue;
        }
        IRBuilder<> b(call);
        CallInst* bound = b.CreateCall(hook, {call->getArgOperand(0), call->getArgOperand(1)});
        bound->setDebugLoc(call->getDebugLoc());
        call->eraseFromParent();
      }
    if (f->use_empty()) f->eraseFromParent();
  }
}

PreservedAnalyses CountFpPass::run(Module& m, ModuleAnalysisManager&) {
  RuntimeFiles runtime(runtime_prefix(m));
  Annotated marked = annotated(m);
  SiteTable sites(m, runtime);
  for (Function* f : device_functions(marked, runtime)) {
    // (instruction, operation, how many): an operation counts once, plus the
    // instructions nvcc expands it into (a division's FFMAs, a call of expf).
    std::vector<std::tuple<Instruction*, unsigned, unsigned>> todo;
    for (Instruction& i : instructions(*f)) {
      if (runtime.uninstrumented_location(i.getDebugLoc().get())) continue;
      unsigned op = 0;
      if (folded_by_nvcc(i)) continue;
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
          // Before the call: its value does not exist yet, so this count is never folded.
          CallInst* count_call = b.CreateCall(deferred_fp_count(m, nullptr), {b.getInt32(op), site});
          count_call->setDebugLoc(i->getDebugLoc());
          ensure_location(*count_call);
        }
      }
    }
    for (auto [i, op, n] : todo) {
      const unsigned lanes = i->getType()->isVectorTy() ? cast<FixedVectorType>(i->getType())->getNumElements() : 1;
      // After the operation, so the count takes its value (an invoke, which ends its
      // block, is counted before it, without).
      const bool after = !i->isTerminator();
      IRBuilder<> b(after ? i->getNextNode() : i);
      Constant* site = sites.site_of(*i, "fp" + std::to_string(op));
      for (unsigned k = 0; k < lanes * n; ++k) {
        CallInst* call = after ? b.CreateCall(deferred_fp_count(m, i->getType()), counted(b, op, site, *i))
                               : b.CreateCall(deferred_fp_count(m, nullptr), {b.getInt32(op), site});
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
