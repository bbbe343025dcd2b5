// The checks on shared memory that may wait for the barrier: races between two
// barriers and reads of words the block never wrote. A convergent warp's accesses
// are checked a whole row (one warp instruction) at a time when its interval ends;
// a divergent warp's as they happen. Either way each 4-byte word goes through
// check_shared_word once per access. Bounds are never deferred (sim/exec/access.cpp).
#pragma once
#include "sim/state/block.hpp"
#include "sim/check/release_acquire.hpp"
#include "sim/count/shared_patterns.hpp"
#include "sim/state/warp_log.hpp"

namespace simt {

// Who made a shared access, enough to check it and to name it in a diagnostic.
struct SharedAccessor {
  std::uint16_t thread;      // linear index in the block
  std::uint32_t sync_count;  // its warp's completed collectives at the time
  Site site;
};

struct SharedCheckFlags {
  bool races = true, uninitialized = true;
  // Reads must be noted in the shadow because writes of this interval are still
  // to be checked. False when an interval closes with no deferred shared stores:
  // every access of it has been seen, so no later write can conflict.
  bool note_readers = true;
  // Loads need checking at all: false when nothing was written in the interval
  // (no race is possible) and the block has written every word it may use (no
  // read can be uninitialised). The inner loop of a tiled kernel is such an interval.
  bool check_loads = true;
};

// Builds the diagnostic and throws KernelFault; returns when the conflict is no data
// race after all (volatile accesses of different warps, a flag handoff between warps:
// sim/check/release_acquire.hpp).
void shared_race(BlockState& b, const SharedAccessor& who, MemOp op, std::uintptr_t word, std::uint16_t other,
                 bool other_wrote);

// The readers of a word after `thread` reads it too (readers: a thread, kWarpReaders |
// warp, kManyReaders). A read that a flag handoff orders after the earlier ones
// replaces them: a write ordered after it is ordered after them.
SIMT_INLINE std::uint16_t next_readers(const BlockState& b, std::uint16_t readers, std::uint16_t thread) {
  if (readers != kManyReaders && readers != thread &&
      flag_ordered(b, thread, readers & kWarpReaders ? readers & 0x7FFFu : readers / 32u)) [[unlikely]]
    return thread;
  return add_reader(readers, thread);
}

// Threads of one warp are ordered by any warp collective between their accesses
// (other: a thread, or kWarpReaders | warp for several readers of one warp).
SIMT_INLINE bool ordered_after(const SharedAccessor& who, std::uint16_t other, std::uint32_t other_sync) {
  if (other == kManyReaders) return false;
  const unsigned other_warp = other & kWarpReaders ? other & 0x7FFFu : other / 32u;
  return other_warp == who.thread / 32u && who.sync_count > other_sync;
}

// The byte-by-byte check of a split word (bytes: bit i for byte i of the access).
void check_shared_bytes(BlockState& b, SharedWindows& sw, SharedWindow& win, std::uintptr_t word, MemOp op,
                        const SharedAccessor& who, SharedCheckFlags on, unsigned bytes);

SIMT_INLINE void check_shared_word(BlockState& b, SharedWindows& sw, std::uintptr_t word, MemOp op,
                              const SharedAccessor& who, SharedCheckFlags on, unsigned bytes = 0xF) {
  SharedWindow& win = sw.window_of(word);
  SharedShadow& s = win.at(word);
  if (bytes != 0xF || s.split) [[unlikely]] {
    check_shared_bytes(b, sw, win, word, op, who, on, bytes);
    return;
  }
  const std::uint32_t now = sw.interval;
  auto ordered = [&](std::uint16_t other, std::uint32_t other_sync) { return ordered_after(who, other, other_sync); };
  if (on.races && s.w_interval == now && s.w_thread != who.thread && !ordered(s.w_thread, s.w_sync))
    shared_race(b, who, op, word, s.w_thread, true);
  if (op == MemOp::Store) {
    if (s.w_interval < sw.block_start && sw.unwritten_words > 0) --sw.unwritten_words;
    sw.stores_this_interval = true;
    if (on.races && s.r_interval == now && s.r_thread != who.thread && !ordered(s.r_thread, s.r_sync))
      shared_race(b, who, op, word, s.r_thread, false);
    s.w_interval = now;
    s.w_thread = who.thread;
    s.w_sync = who.sync_count;
  } else {
    if (on.uninitialized && s.w_interval < sw.block_start) sw.pending.push_back({word, who.thread, who.site});
    if (s.r_interval != now) s.r_thread = who.thread;
    else s.r_thread = next_readers(b, s.r_thread, who.thread);
    s.r_interval = now;
    s.r_sync = who.sync_count;
  }
}

// Every word of one thread's shared load or store.
SIMT_INLINE void check_shared_access(BlockState& b, SharedWindows& sw, std::uintptr_t addr, std::uint32_t size, MemOp op,
                                const SharedAccessor& who, SharedCheckFlags on) {
  for (std::uintptr_t w = addr & ~std::uintptr_t(3); w < addr + size; w += 4) {
    const unsigned lo = addr > w ? unsigned(addr - w) : 0, hi = addr + size < w + 4 ? unsigned(addr + size - w) : 4;
    check_shared_word(b, sw, w, op, who, on, ((1u << hi) - 1) & ~((1u << lo) - 1));
  }
}

// The deferred checks of one row (a convergent warp's shared load or store), given
// the warp's collective count when it ran. With `pattern` (the row's analysis, when
// one wavefront) a word read by several lanes is checked once for all of them.
// Throws KernelFault.
void check_shared_row(BlockState& b, unsigned warp, const WarpAccess& row, std::uint32_t sync_count,
                      SharedCheckFlags on, const SharedPattern* pattern);


}  // namespace simt
