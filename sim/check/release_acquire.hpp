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
//
// Within a block the same at thread level, warp granularity: the handoff between
// warps through a flag (a volatile __shared__ word, a spin lock taken with atomicCAS).
//  - volatile loads and stores, like atomics, are relaxed operations: two of them on
//    one word from different warps are no data race (kSiteVolatile);
//  - release: a volatile store or a changing atomic on word X by a thread that has
//    fenced (__threadfence() or __threadfence_block()) in this barrier interval
//    publishes the interval's accesses of its warp, and of the warps it acquired;
//  - acquire: a volatile load or an atomic of X observes what X published so far;
//    the thread's next fence takes it: from then on, the published warps' accesses of
//    this interval are ordered before the thread's.
// The first acquisition in an interval makes every warp of the block check its
// accesses as they run (the deferred rows so far are checked then), so that "before"
// and "after" are the order in which they ran. Lanes of one warp are still ordered
// only by warp collectives (a volatile warp-synchronous reduction without __syncwarp
// stays a race).
#pragma once
#include "sim/state/block.hpp"
#include "sim/state/release_log.hpp"
#include "sim/types/events.hpp"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace simt {

// The releases of one launch, per atomic word: shared by the launch's workers.
void note_fence(ThreadState* t);                         // __threadfence()
void before_atomic(ThreadState* t, std::uintptr_t word);  // may release
void after_atomic(ThreadState* t, std::uintptr_t word);   // may acquire

// Is `other_block`'s access of its interval `other_epoch15` ordered before this
// thread's current access by a release the block has acquired?
bool ordered_by_release(const BlockState& b, std::uint32_t thread, std::uint64_t other_block,
                        std::uint16_t other_epoch15);

// Thread level, within the block (threads by their index in the block).
void note_block_fence(ThreadState* t);                      // any fence
void flag_store(ThreadState* t, std::uintptr_t word);       // volatile store, changing atomic: may release
void flag_load(ThreadState* t, std::uintptr_t word);        // volatile load, atomic: may observe
// After note_block_fence: whether the thread observed releases it has not taken yet.
bool flag_acquire_pending(const ThreadState* t);
// Takes them. The caller has made the block's accesses so far checked (all warps
// divergent), and thread-level ordering is in force from now on.
void flag_acquire(ThreadState* t);
// Is an access of warp `other_warp` (this interval) ordered before `thread`'s current
// one by a flag handoff? Only between different warps, while thread-level ordering is
// in force. Inlined into the race checks: one test of a flag when it is not.
inline bool flag_ordered(const BlockState& b, std::uint32_t thread, unsigned other_warp) {
  if (!b.flag_ordering()) [[likely]]
    return false;
  const ThreadState& t = b.threads[thread];
  return t.flag_epoch == b.epoch + 1 && other_warp != t.warp && (t.acquired_warps >> other_warp & 1u);
}

// A conflicting access at `site` by `thread` with one of warp `other_warp` (-1: of
// several warps, or of another block) that is no data race: the access is volatile
// and the other is not in its warp (the shadow keeps no site: the other is taken to
// be volatile too), or a flag handoff orders them. Cold: called only where a race
// would be reported.
bool excused_conflict(const BlockState& b, std::uint32_t thread, Site site, int other_warp);

}  // namespace simt
