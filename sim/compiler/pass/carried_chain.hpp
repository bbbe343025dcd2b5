// Loop-carried dependency chains: per iteration of a loop, the clocks of the longest
// chain of dependent operations from one of its header's phis back to the value that
// phi takes next iteration — an accumulator's FFMA (`s = fmaf(q[c], k[c], s)`), a
// running max and the online softmax's rescale, Welford's division, an index
// divided dimension by dimension. One warp cannot start an iteration's step before
// the last one's result is back, however many instructions it could issue meanwhile:
// the latency a lone warp waits (docs/counters.md, "Loop-carried chains").
#pragma once
#include <llvm/Analysis/LoopInfo.h>

namespace simt::pass {

// The chain of one iteration of `l`, in tenths of a clock (sm_90, measured on the
// H200: docs/validation/data/course_kernels_ii/chain_latency_h200.txt); 0 when only
// an induction variable is carried. Global loads and warp collectives on the chain
// count nothing: the kernel time model charges them already (load rounds, shuffles).
unsigned carried_chain_tenths(const llvm::Loop& l, const llvm::LoopInfo& loops);

// The longest chain of dependent operations through the code outside every loop of
// `f` (straight-line code: an unrolled dot product, an index computed dimension by
// dimension), in tenths of a clock at the same latencies; run once by each thread.
// Loads count nothing here, shared ones included: the kernel time model charges a
// warp's dependent shared accesses already. Both sides of a branch are walked, so a
// chain that only one side holds is charged to every thread.
unsigned straight_chain_tenths(const llvm::Function& f, const llvm::LoopInfo& loops);

// In a loop whose global loads nvcc does not batch (its body branches, or stores where
// a later load may read), the longest chain of dependent operations from one of its
// global loads' values to the end of the iteration, in tenths of a clock at the same
// latencies, warp collectives (a shuffle tree's steps) included; 0 for a batched loop.
// A warp issues in order: the next iteration's load waits for this iteration's last
// instruction, and that for the loaded value and the chain after it (decode's dot
// product, its shuffle tree and expf, per cached token).
unsigned load_use_chain_tenths(const llvm::Loop& l, const llvm::LoopInfo& loops);

}  // namespace simt::pass
