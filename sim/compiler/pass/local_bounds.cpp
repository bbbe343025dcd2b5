#include "local_bounds.hpp"
#include "device_code.hpp"
#include "pass_options.hpp"

#include "sim/types/events.hpp"

#include <llvm/ADT/Triple.h>
#include <llvm/Analysis/MemoryBuiltins.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

namespace simt::pass {

using namespace llvm;

namespace {

struct LocalAccess {
  Instruction* at;
  Value* pointer;
  Type* type;
  unsigned op;
};

// A load or store whose every possible object is one of the thread's allocas.
bool into_local(Instruction& i, LocalAccess& out) {
  if (auto* ld = dyn_cast<LoadInst>(&i)) out = {&i, ld->getPointerOperand(), ld->getType(), Load};
  else if (auto* st = dyn_cast<StoreInst>(&i)) out = {&i, st->getPointerOperand(), st->getValueOperand()->getType(), Store};
  else return false;
  SmallVector<const Value*, 4> bases;
  getUnderlyingObjects(out.pointer, bases, nullptr, 0);
  return !bases.empty() && std::all_of(bases.begin(), bases.end(), [](const Value* b) { return isa<AllocaInst>(b); });
}

}  // namespace

unsigned guard_local_bounds(Function& f, const std::vector<Instruction*>& accesses, SiteTable& sites) {
  if (pass_options().pass_no_local_bounds) return 0;  // to measure what the checks cost (docs/perf-log.md)
  Module& m = *f.getParent();
  const DataLayout& dl = m.getDataLayout();
  std::vector<LocalAccess> todo;
  for (Instruction* i : accesses)
    if (LocalAccess a; into_local(*i, a)) todo.push_back(a);
  if (todo.empty()) return 0;
  TargetLibraryInfoImpl tli_impl(Triple(m.getTargetTriple()));
  TargetLibraryInfo tli(tli_impl, &f);
  ObjectSizeOpts opts;
  opts.RoundToAlign = false;
  ObjectSizeOffsetEvaluator evaluator(dl, &tli, m.getContext(), opts);
  LLVMContext& c = m.getContext();
  Type* i64 = Type::getInt64Ty(c);
  FunctionCallee report = m.getOrInsertFunction("__simt_local_out_of_bounds_at", Type::getVoidTy(c), i64, i64, i64,
                                                Type::getInt32Ty(c), Type::getInt8PtrTy(c));
  unsigned added = 0;
  for (const LocalAccess& a : todo) {
    SizeOffsetEvalType so = evaluator.compute(a.pointer);
    if (!evaluator.bothKnown(so)) continue;
    IRBuilder<> b(a.at);
    const std::uint64_t bytes = dl.getTypeStoreSize(a.type);
    Value* size = b.CreateZExtOrTrunc(so.first, i64);
    Value* offset = b.CreateSExtOrTrunc(so.second, i64);
    // Out of bounds: offset < 0 (as unsigned: above size), or fewer than `bytes` left.
    Value* left = b.CreateSub(size, offset);
    Value* outside = b.CreateOr(b.CreateICmpULT(size, offset), b.CreateICmpULT(left, ConstantInt::get(i64, bytes)));
    if (auto* known = dyn_cast<ConstantInt>(outside); known && known->isZero()) continue;
    Instruction* then = SplitBlockAndInsertIfThen(outside, a.at, /*Unreachable=*/false);
    IRBuilder<> t(then);
    CallInst* call = t.CreateCall(report, {offset, size, ConstantInt::get(i64, bytes), t.getInt32(a.op),
                                           sites.site_of(*a.at, "local", true)});
    call->setDebugLoc(a.at->getDebugLoc());
    ensure_location(*call);
    ++added;
  }
  return added;
}

}  // namespace simt::pass
