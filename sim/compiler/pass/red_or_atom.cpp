#include "red_or_atom.hpp"
#include "device_code.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

#include <vector>

namespace simt::pass {

using namespace llvm;

namespace {
constexpr const char* kAccess = "__simt_atomic_access";
constexpr const char* kValue = "__simt_atomic_value";

bool calls(const Instruction& i, StringRef name) {
  const auto* call = dyn_cast<CallBase>(&i);
  const Function* callee = call ? call->getCalledFunction() : nullptr;
  return callee && callee->getName() == name;
}

// Whether a value marker still reads the token: the kernel uses the result.
bool result_used(const CallBase& access) {
  for (const User* u : access.users())
    if (const auto* i = dyn_cast<Instruction>(u); i && calls(*i, kValue)) return true;
  return false;
}
}  // namespace

void mark_atomic_value_pure(Module& m) {
  if (Function* f = m.getFunction(kValue)) {
    f->setDoesNotAccessMemory();
    f->setDoesNotThrow();
    f->setWillReturn();
  }
}

void classify_atomics(Function& f) {
  std::vector<CallBase*> accesses, values;
  for (Instruction& i : instructions(f)) {
    if (calls(i, kAccess)) accesses.push_back(cast<CallBase>(&i));
    if (calls(i, kValue)) values.push_back(cast<CallBase>(&i));
  }
  if (accesses.empty() && values.empty()) return;
  Module& m = *f.getParent();
  LLVMContext& c = m.getContext();
  FunctionCallee site_access = m.getOrInsertFunction(
      "__simt_site_access", FunctionType::get(Type::getVoidTy(c), {Type::getInt8PtrTy(c), Type::getInt32Ty(c),
                                                                  Type::getInt32Ty(c)}, false));
  for (CallBase* a : accesses) {
    const auto* may_reduce = dyn_cast<ConstantInt>(a->getArgOperand(2));
    const bool red = may_reduce && !may_reduce->isZero() && !result_used(*a);
    IRBuilder<> b(a);
    CallInst* call = b.CreateCall(site_access, {b.CreatePointerCast(a->getArgOperand(0), b.getInt8PtrTy()),
                                                a->getArgOperand(1), b.getInt32(red ? Reduction : Atomic)});
    call->setDebugLoc(a->getDebugLoc());
    a->replaceAllUsesWith(b.getInt32(0));
  }
  for (CallBase* v : values) {
    v->replaceAllUsesWith(v->getArgOperand(0));
    v->eraseFromParent();
  }
  for (CallBase* a : accesses) a->eraseFromParent();
}

}  // namespace simt::pass
