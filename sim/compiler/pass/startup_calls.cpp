#include "startup_calls.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <string>

namespace simt::pass {

using namespace llvm;

namespace {

// A constructor named after the registrar that calls it with `args`.
void call_at_startup(Module& m, FunctionCallee registrar, ArrayRef<Value*> args) {
  LLVMContext& c = m.getContext();
  const std::string name = "simt.ctor" + registrar.getCallee()->getName().str();
  auto* ctor = Function::Create(FunctionType::get(Type::getVoidTy(c), false), GlobalValue::InternalLinkage, name, m);
  IRBuilder<> b(BasicBlock::Create(c, "", ctor));
  b.CreateCall(registrar, args);
  b.CreateRetVoid();
  appendToGlobalCtors(m, ctor, 0);
}

}  // namespace

void call_at_startup(Module& m, const char* registrar) {
  call_at_startup(m, m.getOrInsertFunction(registrar, Type::getVoidTy(m.getContext())), {});
}

void register_section_at_startup(Module& m, const char* section, const char* registrar) {
  LLVMContext& c = m.getContext();
  Type* i8 = Type::getInt8Ty(c);
  Type* i8p = Type::getInt8PtrTy(c);
  auto bound = [&](const std::string& name) {
    auto* gv = cast<GlobalVariable>(m.getOrInsertGlobal(name, i8));
    gv->setVisibility(GlobalValue::HiddenVisibility);
    return gv;
  };
  FunctionCallee reg = m.getOrInsertFunction(registrar, Type::getVoidTy(c), i8p, i8p);
  call_at_startup(m, reg, {bound(std::string("__start_") + section), bound(std::string("__stop_") + section)});
}

void register_functions_at_startup(Module& m, const std::vector<Function*>& functions, const char* registrar) {
  LLVMContext& c = m.getContext();
  Type* i8p = Type::getInt8PtrTy(c);
  std::vector<Constant*> entries;
  for (Function* f : functions) entries.push_back(ConstantExpr::getPointerCast(f, i8p));
  auto* type = ArrayType::get(i8p, entries.size());
  auto* table = new GlobalVariable(m, type, true, GlobalValue::PrivateLinkage, ConstantArray::get(type, entries),
                                   std::string("simt.table") + registrar);
  FunctionCallee reg =
      m.getOrInsertFunction(registrar, Type::getVoidTy(c), PointerType::getUnqual(i8p), Type::getInt32Ty(c));
  call_at_startup(m, reg,
                  {ConstantExpr::getPointerCast(table, PointerType::getUnqual(i8p)),
                   ConstantInt::get(Type::getInt32Ty(c), entries.size())});
}

}  // namespace simt::pass
