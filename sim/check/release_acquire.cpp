#include "sim/check/release_acquire.hpp"

#include "sim/state/block.hpp"
#include "sim/state/context.hpp"
#include "sim/state/launch_context.hpp"
#include "sim/symbols/compiler_sites.hpp"

namespace simt {

void note_fence(ThreadState* t) { t->block->fence_epoch = t->block->epoch + 1; }

void before_atomic(ThreadState* t, std::uintptr_t word) {
  BlockState& b = *t->block;
  if (!b.fence_epoch) return;
  const std::uint32_t fenced = b.fence_epoch - 1;
  if (b.released_word == word && b.released_epoch == fenced) return;  // a retry, or a second atomic
  b.launch->releases.release(word, b.linear, fenced);
  b.released_word = word;
  b.released_epoch = fenced;
}

void after_atomic(ThreadState* t, std::uintptr_t word) {
  BlockState& b = *t->block;
  const ReleaseLog& log = b.launch->releases;
  if (log.empty()) return;
  const std::uint32_t seen = log.count(word);
  if (!seen) return;
  for (Acquired& a : b.acquired)  // a spin on the same word in the same interval: one entry
    if (a.word == word && a.epoch == b.epoch && a.thread == t->linear) {
      a.seen = seen;
      return;
    }
  b.acquired.push_back({word, seen, b.epoch, t->linear});
}

bool ordered_by_release(const BlockState& b, std::uint32_t thread, std::uint64_t other_block,
                        std::uint16_t other_epoch15) {
  for (const Acquired& a : b.acquired) {
    const bool after = a.epoch < b.epoch || (a.epoch == b.epoch && a.thread == thread);
    if (after && b.launch->releases.publishes(a.word, a.seen, other_block, other_epoch15)) return true;
  }
  return false;
}

// Thread level, within the block. A thread's and the block's flag state belong to
// one barrier interval; the first use in a later one starts them afresh.
namespace {

ThreadState& flag_state(ThreadState* t) {
  const std::uint32_t now = t->block->epoch + 1;
  if (t->flag_epoch != now) {
    t->flag_epoch = now;
    t->fenced = false;
    t->observed_warps = t->acquired_warps = 0;
  }
  return *t;
}

std::unordered_map<std::uintptr_t, std::uint32_t>& flag_words(BlockState& b) {
  if (b.flags_epoch != b.epoch + 1) {
    b.flags_epoch = b.epoch + 1;
    b.flag_words.clear();
    b.flag_order = false;
  }
  return b.flag_words;
}

}  // namespace

void note_block_fence(ThreadState* t) {
  if (t->block->nwarps > 1) flag_state(t).fenced = true;
}

void flag_store(ThreadState* t, std::uintptr_t word) {
  BlockState& b = *t->block;
  if (b.nwarps < 2 || t->flag_epoch != b.epoch + 1 || !t->fenced) return;  // not fenced in this interval
  flag_words(b)[word] |= 1u << t->warp | t->acquired_warps;
}

void flag_load(ThreadState* t, std::uintptr_t word) {
  BlockState& b = *t->block;
  if (b.nwarps < 2 || b.flags_epoch != b.epoch + 1) return;
  const auto it = b.flag_words.find(word);
  if (it == b.flag_words.end()) return;
  ThreadState& s = flag_state(t);
  s.observed_warps |= it->second & ~(1u << s.warp) & ~s.acquired_warps;
}

bool flag_acquire_pending(const ThreadState* t) {
  return t->flag_epoch == t->block->epoch + 1 && t->observed_warps != 0;
}

void flag_acquire(ThreadState* t) {
  ThreadState& s = flag_state(t);
  flag_words(*t->block);
  t->block->flag_order = true;
  s.acquired_warps |= s.observed_warps;
  s.observed_warps = 0;
}

bool excused_conflict(const BlockState& b, std::uint32_t thread, Site site, int other_warp) {
  const unsigned warp = thread / 32;
  if (other_warp == int(warp)) return false;  // lanes of one warp: ordered by collectives only
  if (const CompilerSite* c = compiler_site(site); c && (c->flags & kSiteVolatile)) return true;
  return other_warp >= 0 && flag_ordered(b, thread, unsigned(other_warp));
}

}  // namespace simt
