#include "unwritten_shared.hpp"
#include "device_code.hpp"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Operator.h>

#include <set>
#include <string>
#include <vector>

namespace simt::pass {

using namespace llvm;

namespace {

// Follows the address of a __shared__ variable through casts, element addresses, phis
// and selects. Collects the loads from it; false as soon as a use could write it (a
// store, an atomic, a call it is passed to, an escape into memory or an integer).
bool only_read(Value* address, std::vector<LoadInst*>& loads, SmallPtrSet<Value*, 16>& seen) {
  if (!seen.insert(address).second) return true;
  for (User* user : address->users()) {
    if (auto* load = dyn_cast<LoadInst>(user)) {
      loads.push_back(load);
      continue;
    }
    if (isa<GEPOperator>(user) || isa<BitCastOperator>(user) || isa<AddrSpaceCastOperator>(user) ||
        isa<PHINode>(user) || isa<SelectInst>(user)) {
      if (!only_read(user, loads, seen)) return false;
      continue;
    }
    if (isa<ICmpInst>(user) || isa<DbgInfoIntrinsic>(user)) continue;
    if (auto* intrinsic = dyn_cast<IntrinsicInst>(user); intrinsic && intrinsic->isLifetimeStartOrEnd()) continue;
    return false;
  }
  return true;
}

// "'tile' (declared at line 3)" from the variable's debug record, its symbol otherwise.
std::string describe(const GlobalVariable& gv) {
  SmallVector<DIGlobalVariableExpression*, 1> records;
  gv.getDebugInfo(records);
  for (const DIGlobalVariableExpression* r : records)
    if (const DIGlobalVariable* var = r->getVariable())
      return "'" + var->getName().str() + "' (declared at line " + std::to_string(var->getLine()) + ")";
  return "'" + gv.getName().str() + "'";
}

}  // namespace

unsigned mark_unwritten_shared_reads(Module& m) {
  const Annotated marked = annotated(m);
  const std::set<const Function*> device(marked.functions.begin(), marked.functions.end());
  LLVMContext& c = m.getContext();
  FunctionCallee marker =
      m.getOrInsertFunction("__simt_site_unwritten_shared_read", Type::getVoidTy(c), Type::getInt8PtrTy(c));
  unsigned added = 0;
  for (GlobalVariable& gv : m.globals()) {
    // __shared__ is a thread_local defined in the module (cuda_runtime.h).
    if (!gv.isThreadLocal() || gv.isDeclaration() || !gv.getInitializer()->isNullValue()) continue;
    std::vector<LoadInst*> loads;
    SmallPtrSet<Value*, 16> seen;
    if (!only_read(&gv, loads, seen)) continue;
    const std::string name = describe(gv);
    for (LoadInst* load : loads) {
      if (!device.count(load->getFunction())) continue;
      IRBuilder<> b(load);
      CallInst* call = b.CreateCall(marker, {b.CreateGlobalStringPtr(name, "simt.unwritten_shared")});
      call->setDebugLoc(load->getDebugLoc());
      ++added;
    }
  }
  return added;
}

}  // namespace simt::pass
