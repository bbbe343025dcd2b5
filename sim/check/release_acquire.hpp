// Ordering between blocks of one launch through a fence and an atomic, for the global
// race check. CUDA's threadFenceReduction sample, llm.c's "last block" reductions and
// single-pass scans publish results this way: each block writes its partial,
// __threadfence(), then an atomic on a counter; the block whose atomic comes last reads
// every partial. The fence and the atomic make those reads ordered after the writes
// (a release by the writer, an acquire by the reader through the same word), so they
// are not races.
//
// The model, at block and barrier-interval granularity (the race shadow's):
//  - release: a block's atomic on word X, after the block executed __threadfence(),
//    publishes the block's writes up to the interval of its latest fence;
//  - acquire: an atomic on X takes every release on X that came before it; the
//    acquiring block's accesses after its next barrier (the acquiring thread's at once)
//    are ordered after the released writes.
// A release is recorded before its atomic and an acquire after its own, so an acquire
// never misses a release whose atomic preceded it.
#pragma once
#include "sim/state/release_log.hpp"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace simt {

struct BlockState;
struct ThreadState;

// The releases of one launch, per atomic word: shared by the launch's workers.
void note_fence(ThreadState* t);                         // __threadfence()
void before_atomic(ThreadState* t, std::uintptr_t word);  // may release
void after_atomic(ThreadState* t, std::uintptr_t word);   // may acquire

// Is `other_block`'s access of its interval `other_epoch15` ordered before this
// thread's current access by a release the block has acquired?
bool ordered_by_release(const BlockState& b, std::uint32_t thread, std::uint64_t other_block,
                        std::uint16_t other_epoch15);

}  // namespace simt
