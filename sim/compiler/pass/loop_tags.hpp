// Which loop each basic block of a function sits in, as the site records carry it
// (the `loop` field: an id and kSiteLoopBatched, sim/types/events.hpp). The kernel
// time model reads it: loads of one loop overlap, loops run one after another, and a
// branch-free loop's loads are issued several iterations at a time
// (cost/kernel/kernel_terms.cpp, load_chain).
#pragma once
#include "sites.hpp"

#include <llvm/IR/Function.h>

#include <map>

namespace llvm {
class Loop;
}

namespace simt::pass {

// Whether nvcc issues several iterations' global loads of `l` at once (its body is
// branch-free and stores nothing a later load may read): kSiteLoopBatched of its tag.
bool batches_global_loads(const llvm::Loop& l);

class LoopTags {
 public:
  // The tags of f's blocks; ids continue from the previous function's, so they are
  // unique in the module. `runtime` tells simtlab's own code, for the body's size.
  void compute(llvm::Function& f, const RuntimeFiles& runtime);
  // 0 outside loops.
  unsigned of(const llvm::BasicBlock* b) const;
  // The block's ordinal in its function (1, 2, ...), for the site records' flags
  // (kSiteBlockShift): loads of a loop that branches wait one after another when they
  // lie in different blocks. A small if-region nvcc predicates (a guarded load, `c ? x
  // : 0`) is one block in SASS: its arms and join share its head's ordinal.
  unsigned ordinal(const llvm::BasicBlock* b) const;
  // Barriers before `i` in its block: loads of one block on either side of a barrier
  // are not in flight together (the copies of a k loop LLVM unrolled twice).
  static unsigned barriers_before(const llvm::Instruction& i);

 private:
  std::map<const llvm::BasicBlock*, unsigned> tags_;
  std::map<const llvm::BasicBlock*, unsigned> ordinals_;
  unsigned next_id_ = 1;
};

}  // namespace simt::pass
