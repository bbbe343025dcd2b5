#include "address_spaces.hpp"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>

namespace simt::pass {

using namespace llvm;

namespace {

enum class Space { Unknown, Global, Shared };

// __shared__ is a thread_local defined in the module (one copy per block's worker:
// cuda_runtime.h); the runtime's own thread-locals are declarations.
Space space_of(Value* ptr, const Function& kernel) {
  const Value* base = getUnderlyingObject(ptr, 0);
  if (const auto* arg = dyn_cast<Argument>(base))
    return arg->getParent() == &kernel && arg->getType()->isPointerTy() && !arg->hasByValAttr() ? Space::Global
                                                                                                 : Space::Unknown;
  if (const auto* gv = dyn_cast<GlobalVariable>(base))
    return gv->isThreadLocal() && !gv->isDeclaration() ? Space::Shared : Space::Unknown;
  return Space::Unknown;
}

Value* accessed_pointer(Instruction& i) {
  if (auto* ld = dyn_cast<LoadInst>(&i)) return ld->getPointerOperand();
  if (auto* st = dyn_cast<StoreInst>(&i)) return st->getPointerOperand();
  return nullptr;
}

}  // namespace

PreservedAnalyses SeparateAddressSpaces::run(Function& f, FunctionAnalysisManager&) {
  // __global__ functions carry this ABI tag (cuda_runtime.h); the pass runs at each
  // peephole point, and the first one tags the kernel for good.
  if (!f.getName().contains("simt_kernel") || f.hasFnAttribute("simt-address-spaces")) return PreservedAnalyses::all();
  f.addFnAttr("simt-address-spaces");
  MDBuilder md(f.getContext());
  MDNode* domain = md.createAnonymousAliasScopeDomain("simt.address_spaces");
  MDNode* global = md.createAnonymousAliasScope(domain, "global");
  MDNode* shared = md.createAnonymousAliasScope(domain, "shared");
  MDNode* global_list = MDNode::get(f.getContext(), {global});
  MDNode* shared_list = MDNode::get(f.getContext(), {shared});
  bool changed = false;
  for (Instruction& i : instructions(f)) {
    Value* ptr = accessed_pointer(i);
    if (!ptr) continue;
    const Space s = space_of(ptr, f);
    if (s == Space::Unknown) continue;
    const bool is_global = s == Space::Global;
    i.setMetadata(LLVMContext::MD_alias_scope,
                  MDNode::concatenate(i.getMetadata(LLVMContext::MD_alias_scope), is_global ? global_list : shared_list));
    i.setMetadata(LLVMContext::MD_noalias,
                  MDNode::concatenate(i.getMetadata(LLVMContext::MD_noalias), is_global ? shared_list : global_list));
    changed = true;
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace simt::pass
