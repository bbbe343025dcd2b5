// ptxas fuses a thread's accesses of consecutive words of a __shared__ array into one
// wide instruction where it can prove the alignment: four 4-byte loads at byte
// offsets 16k, 16k+4, 16k+8, 16k+12 from a 16-byte-aligned address become one
// LDS.128, two at 8k and 8k+4 one LDS.64 (the same for STS). The blocktiled GEMMs'
// and tiled attention's inner loops, fully unrolled over a tile row, are made of
// such runs: matmul_blocktile_2d's SASS has only LDS.128
// (docs/validation/h200-course-kernels-ii.md). The CPU compiler keeps them scalar
// (vectorising is off, docs/frontend.md), so the pass finds the runs itself: the
// instruction estimate leaves the followers out, and the counters record each run
// as the wide access ncu sees (docs/counters.md, "Wide shared accesses").
#pragma once
#include <llvm/IR/Function.h>
#include <llvm/IR/Instruction.h>

#include <map>
#include <set>

namespace simt::pass {

// The accesses of `f` that ride in an earlier access's wide instruction: the 2nd to
// 4th word of each fused run. A run is made of loads (or stores) of 4-byte values in
// one basic block, through a __shared__ array (a thread_local global the module
// defines, aligned to 16 bytes) at the same variable index, with every variable term
// of the address a multiple of the run's width and constant offsets that fill it.
std::set<const llvm::Instruction*> fused_shared_followers(const llvm::Function& f);

// The same runs with their first word: each leader (the access of the run's lowest
// word) and the run's width in bytes (8 or 16), and the followers.
struct FusedShared {
  std::map<const llvm::Instruction*, unsigned> leaders;
  std::set<const llvm::Instruction*> followers;
};
FusedShared fused_shared_runs(const llvm::Function& f);

}  // namespace simt::pass
