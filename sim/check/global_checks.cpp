#include "sim/check/global_checks.hpp"
#include "sim/check/release_acquire.hpp"
#include "sim/check/repeated_store.hpp"

#include "sim/memory/global_memory.hpp"
#include "sim/state/launch_context.hpp"

#include <fmt/format.h>

#include <atomic>
#include <bit>

namespace simt {

namespace {

GlobalMemory& memory() {  // looked up once: the accessor's guard check showed in profiles
  static GlobalMemory* const m = &GlobalMemory::instance();
  return *m;
}

const char* op_name(MemOp op) { return op == MemOp::Load ? "read" : op == MemOp::Store ? "write" : "atomic"; }

[[noreturn]] void fault(std::string msg, ThreadState* t, Site site, std::uintptr_t addr) {
  Diagnostic d = t->block->make_diag(DiagKind::GlobalRace, std::move(msg), t, site);
  d.address = addr;
  if (const Allocation* a = memory().nearest(addr)) d.allocation = a->describe();
  throw KernelFault(std::move(d));
}

constexpr std::uint32_t kManyBlocks = 0xFFFFFFFFu;
struct Stamp {
  std::uint16_t tag;
  std::uint16_t epoch;  // top bit: several readers in this block and epoch
  std::uint32_t thread; // global linear thread id
  static Stamp of(std::uint64_t v) { return {std::uint16_t(v >> 48), std::uint16_t(v >> 32), std::uint32_t(v)}; }
  std::uint64_t pack() const { return std::uint64_t(tag) << 48 | std::uint64_t(epoch) << 32 | thread; }
};

}  // namespace

// Global races: per 4-byte word, the last writer and the last reader(s)
// of this launch. Threads of one block are ordered by barriers; different
// blocks are never ordered within a launch. An access of fewer than 4 bytes
// (a __half, a char) records itself but is not checked: the shadow cannot tell
// which bytes of the word another thread touched, and neighbouring threads
// storing neighbouring __half elements share a word without racing.
namespace {

// What every lane of a warp's row shares: looked up once a row, not once a lane
// (the lookups and the prologue were half of the check's time on vector_add).
struct RaceScope {
  explicit RaceScope(BlockState& block)
      : b(block), L(*block.launch), gm(memory()), first(std::uint32_t(block.linear * L.threads_per_block)),
        epoch(static_cast<std::uint16_t>(block.epoch & 0x7FFF)) {}
  BlockState& b;
  const LaunchContext& L;
  GlobalMemory& gm;
  std::uint32_t first;  // the block's first global thread id
  std::uint16_t epoch;

  bool ordered(std::uint32_t thread, std::uint32_t other, std::uint16_t other_epoch) const {
    if (other == kManyBlocks) return false;
    const std::uint64_t other_block = other / L.threads_per_block;
    if (other_block == b.linear)  // one reader of this block: a flag handoff may order it
      return (other_epoch & 0x7FFF) != epoch ||
             (!(other_epoch & 0x8000) && flag_ordered(b, thread, unsigned(other % L.threads_per_block / 32)));
    return ordered_by_release(b, thread, other_block, std::uint16_t(other_epoch & 0x7FFF));
  }
};

// The warp of another access's thread, if in this block; -1 for another block's or
// several threads'.
int warp_in_block(const RaceScope& c, std::uint32_t other, bool several) {
  if (other == kManyBlocks || several || other / c.L.threads_per_block != c.b.linear) return -1;
  return int(other % c.L.threads_per_block / 32);
}

// Both return when the conflict is no data race after all (volatile accesses of
// different warps or blocks: sim/check/release_acquire.hpp).
__attribute__((noinline, cold)) void write_conflict(const RaceScope& c, std::uint32_t thread, MemOp op, Site site,
                                                    std::uintptr_t a, Stamp w) {
  if (excused_conflict(c.b, thread, site, warp_in_block(c, w.thread, false))) return;
  const bool same_block = w.thread / c.L.threads_per_block == c.b.linear;
  fault(fmt::format("data race on global memory: this {} conflicts with a write by block {} {} in the same launch "
                    "({})",
                    op_name(op), w.thread / c.L.threads_per_block, c.b.thread_name(w.thread % c.L.threads_per_block),
                    same_block ? "no barrier orders them, nor a fence and a flag (volatile or atomic) between "
                                 "their warps"
                               : "no barrier orders them, nor a __threadfence() before an atomic this block "
                                 "synchronised through"),
        &c.b.threads[thread], site, a);
}

__attribute__((noinline, cold)) void read_conflict(const RaceScope& c, std::uint32_t thread, Site site,
                                                   std::uintptr_t a, Stamp r) {
  const bool several = (r.epoch & 0x8000) && r.thread / c.L.threads_per_block == c.b.linear &&
                       r.thread % c.L.threads_per_block / 32 != thread / 32;
  if (excused_conflict(c.b, thread, site, warp_in_block(c, r.thread, several))) return;
  fault(fmt::format("data race on global memory: this write conflicts with a read by {} in the same launch",
                    r.thread == kManyBlocks ? std::string("threads of other blocks")
                                            : fmt::format("block {} {}", r.thread / c.L.threads_per_block,
                                                          c.b.thread_name(r.thread % c.L.threads_per_block))),
        &c.b.threads[thread], site, a);
}

inline __attribute__((always_inline)) void check_lane(const RaceScope& c, std::uint32_t thread, std::uintptr_t addr,
                                                      unsigned size, MemOp op, Site site) {
  const std::uint32_t me = c.first + thread;
  const std::uint16_t tag = c.L.tag;
  const bool checked = size >= 4;
  for (std::uintptr_t a = addr & ~std::uintptr_t(3); a < addr + size; a += 4) {
    std::atomic_ref<std::uint64_t> wref(c.gm.race_shadow(a)[0]), rref(c.gm.race_shadow(a)[1]);
    const Stamp w = Stamp::of(wref.load(std::memory_order_relaxed));
    if (checked && w.tag == tag && w.thread != me && !c.ordered(thread, w.thread, w.epoch))
      write_conflict(c, thread, op, site, a, w);
    const Stamp r = Stamp::of(rref.load(std::memory_order_relaxed));
    if (checked && op == MemOp::Store && r.tag == tag && (r.thread != me || (r.epoch & 0x8000)) &&
        !c.ordered(thread, r.thread, r.epoch))
      read_conflict(c, thread, site, a, r);
    if (op == MemOp::Store) {
      wref.store(Stamp{tag, c.epoch, me}.pack(), std::memory_order_relaxed);
    } else {
      Stamp n{tag, c.epoch, me};
      if (r.tag == tag && r.thread != me) {
        if (r.thread == kManyBlocks || r.thread / c.L.threads_per_block != c.b.linear) n.thread = kManyBlocks;
        else if ((r.epoch & 0x7FFF) == c.epoch && !c.ordered(thread, r.thread, r.epoch))  // a flag handoff's
          n = {tag, std::uint16_t(c.epoch | 0x8000), r.thread};  // later reader replaces the earlier one
      } else if (r.tag == tag && r.thread == me && (r.epoch & 0x7FFF) == c.epoch) {
        n = r;
      }
      if (n.pack() != r.pack()) rref.store(n.pack(), std::memory_order_relaxed);  // no write, no cache-line ping-pong
    }
  }
}

}  // namespace

void check_global_race(BlockState& b, std::uint32_t thread, std::uintptr_t addr, unsigned size, MemOp op,
                       Site site) {
  check_lane(RaceScope(b), thread, addr, size, op, site);
}

void check_global_row(BlockState& b, unsigned warp, const WarpAccess& row, bool races) {
  if (!races || is_atomic(row.op)) return;
  const bool repeats = has_repeated_stores(row);
  const RaceScope scope(b);
  for (std::uint32_t active = row.active; active; active &= active - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(active));
    if (repeats && repeats_earlier_store(row, lane)) continue;
    check_lane(scope, warp * 32 + lane, row.addr[lane], row.size, row.op, row.site);
  }
}

}  // namespace simt
