// FP counts that ride on the block records (fold_fp_counts.cpp).
#pragma once
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <cstdint>
#include <map>
#include <vector>

namespace simt::pass {

// A bound FP count: __simt_fp(op, site), or its inlined fast path; null otherwise.
llvm::CallInst* fp_count_call(llvm::Instruction& i);

// Collects, per group of control-equivalent blocks, the FP counts that run exactly as
// often as the group's own record, removes their calls and emits a table
// (section simt_block_ops) from which the runtime multiplies them out when the block
// ends (sim/exec/block_ops.hpp): a thread's inner loop then pays one count per
// iteration, not one per FP operation.
class FpCountFolder {
 public:
  explicit FpCountFolder(llvm::Module& m) : m_(m) {}
  // `group_site`: each group head that has a record, and its site; `head`: every
  // block's group head.
  void fold(llvm::Function& f, const std::map<llvm::BasicBlock*, llvm::Constant*>& group_site,
            const std::map<llvm::BasicBlock*, llvm::BasicBlock*>& head);
  // One record of the table: `times` of `op` per execution of the group whose site is
  // `block`, filed under `site` (also a loop's carried chain: kCarriedChainOp).
  void add(llvm::Constant* block, llvm::Constant* site, std::uint32_t op, std::uint32_t times);
  void emit_registration();

 private:
  llvm::Module& m_;
  std::vector<llvm::GlobalValue*> records_;
};

}  // namespace simt::pass
