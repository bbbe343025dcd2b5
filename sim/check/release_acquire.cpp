#include "sim/check/release_acquire.hpp"

#include "sim/state/block.hpp"
#include "sim/state/context.hpp"
#include "sim/state/launch_context.hpp"

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

}  // namespace simt
