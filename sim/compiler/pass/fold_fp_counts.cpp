#include "fold_fp_counts.hpp"

#include "startup_calls.hpp"

#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <set>
#include <tuple>

namespace simt::pass {

using namespace llvm;

CallInst* fp_count_call(Instruction& i) {
  auto* call = dyn_cast<CallInst>(&i);
  const Function* callee = call ? call->getCalledFunction() : nullptr;
  if (!callee) return nullptr;
  const StringRef name = callee->getName();
  return name == "__simt_fp" || name == "__simt_fp_inline" ? call : nullptr;
}

// A site folds only when every one of its counts in the function lies in one group:
// the warp-level count of a site is its busiest lane's, and a site the optimizer
// copied into two branches must keep summing both copies per lane before that max.
void FpCountFolder::fold(Function& f, const std::map<BasicBlock*, Constant*>& group_site,
                         const std::map<BasicBlock*, BasicBlock*>& head) {
  std::map<Value*, std::set<BasicBlock*>> groups_of;  // FP site -> the groups its counts lie in
  std::vector<std::pair<CallInst*, BasicBlock*>> counts;
  for (Instruction& i : instructions(f))
    if (CallInst* call = fp_count_call(i); call && isa<ConstantInt>(call->getArgOperand(0))) {
      BasicBlock* g = head.at(call->getParent());
      groups_of[call->getArgOperand(1)].insert(g);
      counts.push_back({call, g});
    }
  // (group, FP site, op) -> how many counts per execution of the group
  std::map<std::tuple<BasicBlock*, Value*, std::uint64_t>, unsigned> times;
  for (auto [call, g] : counts) {
    Value* site = call->getArgOperand(1);
    if (!group_site.count(g) || groups_of[site].size() != 1) continue;
    ++times[{g, site, cast<ConstantInt>(call->getArgOperand(0))->getZExtValue()}];
    call->eraseFromParent();
  }
  for (const auto& [key, n] : times) {
    const auto& [g, site, op] = key;
    add(group_site.at(g), cast<Constant>(site), static_cast<std::uint32_t>(op), n);
  }
}

void FpCountFolder::add(Constant* block, Constant* site, std::uint32_t op, std::uint32_t times) {
  LLVMContext& c = m_.getContext();
  Type* i8p = Type::getInt8PtrTy(c);
  Type* i32 = Type::getInt32Ty(c);
  StructType* ty = StructType::get(c, {i8p, i8p, i32, i32});
  // { const void* block; const void* site; uint32 op; uint32 times; } = 24 bytes
  // (sim/exec/block_ops.hpp)
  Constant* init = ConstantStruct::get(ty, {block, site, ConstantInt::get(i32, op), ConstantInt::get(i32, times)});
  auto* gv = new GlobalVariable(m_, ty, true, GlobalValue::PrivateLinkage, init, "simt.block_op");
  gv->setSection("simt_block_ops");
  gv->setAlignment(Align(8));
  records_.push_back(gv);
}

void FpCountFolder::emit_registration() {
  if (records_.empty()) return;
  appendToCompilerUsed(m_, records_);
  register_section_at_startup(m_, "simt_block_ops", "__simt_register_block_ops");
}

}  // namespace simt::pass
