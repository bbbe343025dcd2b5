// FP operations the pass folded into block records (sim/compiler/pass/fold_fp_counts.cpp):
// a group of blocks that runs n times runs each listed operation n * times times. The
// runtime multiplies them out when a block's counts are summed (sim/exec/interval.cpp).
#pragma once
#include "sim/types/events.hpp"

#include <cstdint>
#include <span>

namespace simt {

struct FoldedFpOp {  // the layout the pass emits, after the block's site
  Site site;
  std::uint32_t op, times;
};

// The FP operations of the block record `block`; empty for most sites.
std::span<const FoldedFpOp> folded_fp_ops(Site block);

}  // namespace simt

extern "C" void __simt_register_block_ops(const void* begin, const void* end);
