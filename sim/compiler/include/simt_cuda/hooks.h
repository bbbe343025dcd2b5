// The pass's entry points, inlined into device code (docs/frontend.md, "Speed"):
// the common access — a local, or an aligned access inside a live allocation or a
// __shared__ variable by a convergent warp — is settled without a call, exactly
// as the f32 types' touch() does (sim/exec/context.hpp). The pass calls these
// when the module defines them and inlines them after instrumenting; a module
// without simtlab's headers gets the out-of-line copies in runtime_hooks.cpp.
#pragma once
#include "sim/compiler/spin_watch.hpp"
#include "sim/exec/context.hpp"

extern "C" {
void __simt_access_slow(const void* p, unsigned size, unsigned op, const void* site);

// C names: the pass looks them up by name.
inline __attribute__((always_inline, used)) void __simt_access_inline(const void* p, unsigned size,
                                                                              unsigned op, const void* site) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  if (a - simt::t_stack_lo < simt::t_stack_size) return;  // the thread's own locals
  // The spin watchdog sees loads where they open a row of the warp log, and on
  // the slow path (sim/memory/warp_log.cpp, sim/compiler/runtime_hooks.cpp).
  if (simt::detail::record_fast(a, size, simt::MemOp(op), site)) return;
  __simt_access_slow(p, size, op, site);
}

inline __attribute__((always_inline, used)) void __simt_block_inline(unsigned quarters, const void* site) {
  if (simt::ThreadState* t = simt::t_thread) simt::count_block(t, quarters, site);
}

inline __attribute__((always_inline, used)) void __simt_fp_inline(unsigned op, const void* site) {
  if (simt::ThreadState* t = simt::t_thread) t->ops.add(site, op);
}
}  // extern "C"
