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

// The count as the optimizer sees it: an llvm.annotation, which touches only memory
// the program cannot see and which the cost model calls free. Were it the runtime's
// hook (a store through the thread's state), every count would look to the optimizer
// like a write to any memory, and the loads around an FP operation could no longer
// be merged or hoisted as nvcc merges them (HW4's LayerNorm would read s_mean again
// after every subtraction). Were it a call of a declared function, the loop unroller
// would price it as a call: the tiled matmul's 16-step inner loop, fully unrolled by
// clang (and by nvcc) without counts, stayed rolled with them, and its instruction
// estimate went from 1.09x ncu's to 2.3x. bind_fp_counts() swaps in the hook at the end.
//
// llvm.annotation.iN(iN value's bits, i8* site, i8* tag, i32 op | copies << 8): the
// tag says whether the first operand is the counted value (kValueTag) or nothing.
namespace {

constexpr const char* kValueTag = "simt.fp.value";
constexpr const char* kNoValueTag = "simt.fp.novalue";

Constant* tag(Module& m, const char* name) {
  LLVMContext& c = m.getContext();
  GlobalVariable* g = m.getNamedGlobal(name);
  if (!g)
    g = new GlobalVariable(m, Type::getInt8Ty(c), true, GlobalValue::PrivateLinkage,
                           ConstantInt::get(Type::getInt8Ty(c), 0), name);
  return ConstantExpr::getPointerCast(g, Type::getInt8PtrTy(c));
}

void deferred_fp_count(IRBuilder<>& b, unsigned op, unsigned copies, Constant* site, Value* value,
                       const DebugLoc& where) {
  Module& m = *b.GetInsertBlock()->getModule();
  const bool carries = value && !value->getType()->isVoidTy();
  Value* bits = b.getInt32(0);
  if (carries) {
    const auto size = m.getDataLayout().getTypeSizeInBits(value->getType()).getFixedSize();
    bits = b.CreateBitCast(value, b.getIntNTy(unsigned(size)));
  }
  Function* annotation = Intrinsic::getDeclaration(&m, Intrinsic::annotation, {bits->getType()});
  CallInst* call = b.CreateCall(annotation, {bits, ConstantExpr::getPointerCast(site, b.getInt8PtrTy()),
                                             tag(m, carries ? kValueTag : kNoValueTag),
                                             b.getInt32(op | copies << 8)});
  call->setDebugLoc(where);
  ensure_location(*call);
}

}  // namespace

// Each deferred count carries the value of the operation it counts. nvcc folds an
// operation whose operands became constants once inlined (`hi - lo` of a helper called
// with 1000 and 0); here the optimizer did the same to the value, and the count goes
// with it. The others become the runtime's hook, once per copy.
void bind_fp_counts(Module& m) {
  LLVMContext& c = m.getContext();
  GlobalVariable* with_value = m.getNamedGlobal(kValueTag);
  GlobalVariable* without = m.getNamedGlobal(kNoValueTag);
  if (!with_value && !without) return;
  FunctionCallee hook = entry_point(
      m, "__simt_fp", FunctionType::get(Type::getVoidTy(c), {Type::getInt32Ty(c), Type::getInt8PtrTy(c)}, false));
  std::vector<CallInst*> counts;
  for (Function& f : m)
    if (f.getIntrinsicID() == Intrinsic::annotation)
      for (User* u : f.users())
        if (auto* call = dyn_cast<CallInst>(u)) {
          const Value* t = call->getArgOperand(2)->stripPointerCasts();
          if (t == with_value || t == without) counts.push_back(call);
        }
  for (CallInst* call : counts) {
    const bool folded = call->getArgOperand(2)->stripPointerCasts() == with_value &&
                        isa<Constant>(call->getArgOperand(0));
    const auto code = unsigned(cast<ConstantInt>(call->getArgOperand(3))->getZExtValue());
    if (!folded) {
      IRBuilder<> b(call);
      for (unsigned k = 0; k < code >> 8; ++k) {
        CallInst* bound = b.CreateCall(hook, {b.getInt32(code & 0xFF), call->getArgOperand(1)});
        bound->setDebugLoc(call->getDebugLoc());
      }
    }
    call->replaceAllUsesWith(call->getArgOperand(0));
    call->eraseFromParent();
  }
  for (GlobalVariable* g : {with_value, without})
    if (g && g->use_empty()) g->eraseFromParent();
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
        // Before the call: its value does not exist yet, so this count is never folded.
        deferred_fp_count(b, op, n, site, nullptr, i->getDebugLoc());
      }
    }
    for (auto [i, op, n] : todo) {
      const unsigned lanes = i->getType()->isVectorTy() ? cast<FixedVectorType>(i->getType())->getNumElements() : 1;
      // After the operation, so the count takes its value (an invoke, which ends its
      // block, is counted before it, without).
      const bool after = !i->isTerminator();
      IRBuilder<> b(after ? i->getNextNode() : i);
      Constant* site = sites.site_of(*i, "fp" + std::to_string(op));
      deferred_fp_count(b, op, lanes * n, site, after ? i : nullptr, i->getDebugLoc());
    }
    use_cuda_math(*f);
  }
  sites.emit_registration();
  return sites.size() ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace simt::pass
