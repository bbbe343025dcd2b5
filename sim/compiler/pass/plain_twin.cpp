#include "plain_twin.hpp"

#include "fold_fp_counts.hpp"
#include "startup_calls.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>

namespace simt::pass {

using namespace llvm;

namespace {

constexpr const char* kLastSector = "simt.last_sector";

GlobalVariable* plain_flag(Module& m) {
  Type* i8 = Type::getInt8Ty(m.getContext());
  if (GlobalVariable* gv = m.getNamedGlobal("__simt_plain_block")) return gv;
  // Defined by libsimt_sim (sim/shortcuts/sampling.cpp); initial-exec like the runtime's
  // other hot thread-locals.
  return new GlobalVariable(m, i8, false, GlobalValue::ExternalLinkage, nullptr, "__simt_plain_block", nullptr,
                            GlobalValue::InitialExecTLSModel);
}

}  // namespace

Function* make_plain_twin(Function& kernel) {
  ValueToValueMapTy map;
  Function* twin = CloneFunction(&kernel, map);
  twin->setName(kernel.getName() + ".simt_plain");
  twin->setLinkage(GlobalValue::InternalLinkage);
  std::vector<Instruction*> counts;
  for (Instruction& i : instructions(*twin))
    if (fp_count_call(i)) counts.push_back(&i);
  for (Instruction* i : counts) i->eraseFromParent();
  return twin;
}

void dispatch_to_twin(Function& kernel, Function& twin) {
  LLVMContext& c = kernel.getContext();
  BasicBlock& old_entry = kernel.getEntryBlock();
  BasicBlock* check = BasicBlock::Create(c, "simt.plain_check", &kernel, &old_entry);
  BasicBlock* plain = BasicBlock::Create(c, "simt.plain", &kernel, &old_entry);
  IRBuilder<> b(check);
  if (DISubprogram* sp = kernel.getSubprogram()) b.SetCurrentDebugLocation(DILocation::get(c, sp->getLine(), 0, sp));
  Value* flag = b.CreateLoad(Type::getInt8Ty(c), plain_flag(*kernel.getParent()), "simt.plain_block");
  b.CreateCondBr(b.CreateICmpNE(flag, b.getInt8(0)), plain, &old_entry);
  IRBuilder<> p(plain);
  p.SetCurrentDebugLocation(b.getCurrentDebugLocation());
  std::vector<Value*> args;
  for (Argument& a : kernel.args()) args.push_back(&a);
  CallInst* call = p.CreateCall(twin.getFunctionType(), &twin, args);
  call->setCallingConv(twin.getCallingConv());
  // By-value aggregates are copied by the caller: the twin receives the kernel's copy.
  call->setAttributes(twin.getAttributes());
  p.CreateRetVoid();
}

AllocaInst* last_sector_slot(Function& twin) {
  IRBuilder<> b(&*twin.getEntryBlock().getFirstInsertionPt());
  AllocaInst* slot = b.CreateAlloca(b.getInt64Ty(), nullptr, kLastSector);
  // Marked, not named: clang discards value names in release builds.
  slot->setMetadata(kLastSector, MDNode::get(twin.getContext(), {}));
  b.CreateStore(b.getInt64(~std::uint64_t(0)), slot);
  return slot;
}

PreservedAnalyses PromoteLastSectorSlots::run(Module& m, ModuleAnalysisManager&) {
  bool changed = false;
  for (Function& f : m) {
    if (f.isDeclaration() || !f.getName().endswith(".simt_plain")) continue;
    std::vector<AllocaInst*> slots;
    for (Instruction& i : f.getEntryBlock())
      if (auto* a = dyn_cast<AllocaInst>(&i); a && a->getMetadata(kLastSector) && isAllocaPromotable(a))
        slots.push_back(a);
    if (slots.empty()) continue;  // the out-of-line entry point takes the slot's address
    DominatorTree dt(f);
    PromoteMemToReg(slots, dt);
    changed = true;
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

void register_twins(Module& m, const std::vector<Function*>& kernels) {
  if (!kernels.empty()) register_functions_at_startup(m, kernels, "__simt_register_twins");
}

}  // namespace simt::pass
