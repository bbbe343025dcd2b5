#include "plain_twin.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

namespace simt::pass {

using namespace llvm;

namespace {

bool is_fp_count(const Instruction& i) {
  const auto* call = dyn_cast<CallInst>(&i);
  const Function* callee = call ? call->getCalledFunction() : nullptr;
  return callee && (callee->getName() == "__simt_fp" || callee->getName() == "__simt_fp_inline");
}

GlobalVariable* plain_flag(Module& m) {
  Type* i8 = Type::getInt8Ty(m.getContext());
  if (GlobalVariable* gv = m.getNamedGlobal("__simt_plain_block")) return gv;
  // Defined by libsimt_sim (sim/exec/sampling.cpp); initial-exec like the runtime's
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
    if (is_fp_count(i)) counts.push_back(&i);
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

void register_twins(Module& m, const std::vector<Function*>& kernels) {
  if (kernels.empty()) return;
  LLVMContext& c = m.getContext();
  Type* i8p = Type::getInt8PtrTy(c);
  std::vector<Constant*> entries;
  for (Function* k : kernels) entries.push_back(ConstantExpr::getPointerCast(k, i8p));
  auto* type = ArrayType::get(i8p, entries.size());
  auto* table = new GlobalVariable(m, type, true, GlobalValue::PrivateLinkage, ConstantArray::get(type, entries),
                                   "simt.twinned_kernels");
  FunctionCallee reg = m.getOrInsertFunction("__simt_register_twins", Type::getVoidTy(c), PointerType::getUnqual(i8p),
                                             Type::getInt32Ty(c));
  auto* ctor = Function::Create(FunctionType::get(Type::getVoidTy(c), false), GlobalValue::InternalLinkage,
                                "simt.register_twins", m);
  IRBuilder<> b(BasicBlock::Create(c, "", ctor));
  b.CreateCall(reg, {ConstantExpr::getPointerCast(table, PointerType::getUnqual(i8p)),
                     b.getInt32(static_cast<unsigned>(entries.size()))});
  b.CreateRetVoid();
  appendToGlobalCtors(m, ctor, 0);
}

}  // namespace simt::pass
