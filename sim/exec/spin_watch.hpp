// The watchdogs (docs/frontend.md, "Watchdog"). A spin-wait on memory re-reads one
// word at one site without ever reaching a barrier, and its warp's log would grow
// without bound: the running thread's last load and how many times in a row it
// repeated. A spin on registers touches no memory at all: each thread's estimated
// instructions since its last barrier or warp collective, against a budget.
#pragma once
#include "sim/state/context.hpp"

#include <cstdint>

namespace simt {

struct SpinWatch {
  const ThreadState* thread = nullptr;
  Site site = nullptr;
  std::uintptr_t addr = 0;
  std::uint32_t repeats = 0;
};
inline constexpr std::uint32_t kSpinLimit = std::uint32_t(1) << 18;
// Reads in a row after which a spinning thread lets the rest of its block run: a
// handoff between warps through a volatile flag completes, as warps interleave on
// the GPU. kSpinLimit reads in all, over yields, with no barrier: a deadlock.
inline constexpr std::uint32_t kSpinYieldEvery = std::uint32_t(1) << 8;
extern thread_local constinit SpinWatch t_spin SIMT_FAST_TLS;

// Ends the block with the watchdog's diagnostic (sim/exec/runtime_hooks.cpp).
[[noreturn]] void spin_detected(ThreadState* t, Site site, std::uintptr_t addr);
// kSpinYieldEvery reads in a row: asks for a yield at the thread's next basic block
// (a point between accesses), or ends the block once the yields reach kSpinLimit.
void spin_wants_yield(ThreadState* t, Site site, std::uintptr_t addr);

// Instructions a thread may run between two barriers (or warp collectives):
// The option watchdog_insts, default 2^32 (minutes of simulation for one thread).
extern const std::uint64_t g_watchdog_insts;
// Ends the block with the instruction watchdog's diagnostic, at the site of the
// basic block that crossed the budget (sim/exec/runtime_hooks.cpp); or, when a spin
// asked for it, lets the block's other threads run and returns.
void inst_budget_exceeded(ThreadState* t, Site site);

// The thread's estimated instructions (x 4) since its block began, read off the
// watchdog's countdown (no extra work per basic block): what the budget has counted
// down since it was last renewed, plus `clock_base`'s record of what came before.
// Device clock64() reads it (sim/exec/device_clock_hooks.cpp, docs/exec.md).
inline std::int64_t thread_quarters(const ThreadState* t) {
  return t->clock_base - (t->yield_pending ? t->insts_kept : t->insts_left);
}
inline void set_thread_quarters(ThreadState* t, std::int64_t quarters) {
  t->clock_base = quarters + (t->yield_pending ? t->insts_kept : t->insts_left);
}

// A thread's budget, renewed at each barrier and warp collective: 4 x the
// instructions (the estimate counts quarters), bounded so that it fits. The count
// since the block began carries over.
inline void renew_inst_budget(ThreadState* t) {
  constexpr std::uint64_t kMax = std::uint64_t(1) << 60;
  const std::int64_t quarters = thread_quarters(t);
  t->insts_left = std::int64_t(4 * (g_watchdog_insts < kMax ? g_watchdog_insts : kMax));
  t->spin_yields = 0;
  t->yield_pending = false;
  set_thread_quarters(t, quarters);
}

// A thread starting in a block: its budget, and its count at 0.
inline void start_inst_count(ThreadState* t) {
  t->clock_base = t->insts_left = 0;
  t->yield_pending = false;
  renew_inst_budget(t);
}

// Inlined into kernels at the head of each group of basic blocks.
// `quarters`: the group's estimated SASS instructions x 4.
SIMT_INLINE void count_block(ThreadState* t, unsigned quarters, Site site) {
  t->ops.add(site, kBlockKind + quarters);
  if ((t->insts_left -= quarters) < 0) inst_budget_exceeded(t, site);
}

// Inlined into kernels for every load of device memory.
SIMT_INLINE void watch_load(ThreadState* t, Site site, std::uintptr_t a) {
  SpinWatch& w = t_spin;
  if (w.addr == a && w.site == site && w.thread == t) {
    if (++w.repeats == kSpinYieldEvery) spin_wants_yield(t, site, a);
    return;
  }
  w = {t, site, a, 0};
}

// Atomics that leave their word unchanged (a failing atomicCAS, atomicAdd of 0): the
// same watch as loads, under a site of their own (their line is not known here).
inline const Site kAtomicSpinSite = reinterpret_cast<Site>(std::uintptr_t(1));
inline void watch_atomic(ThreadState* t, std::uintptr_t a) { watch_load(t, kAtomicSpinSite, a); }

}  // namespace simt
