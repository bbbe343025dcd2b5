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

}  // namespace simt::pass
