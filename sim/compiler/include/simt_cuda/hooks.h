// The pass's entry points, inlined into device code (docs/frontend.md, "Speed"):
// the common access — a local, or an aligned access inside a live allocation or a
// __shared__ variable by a convergent warp — is settled without a call, exactly
// as touch() does (sim/state/context.hpp). The pass calls these
// when the module defines them and inlines them after instrumenting; a module
// without simtlab's headers gets the out-of-line copies in runtime_hooks.cpp.
#pragma once
#include "sim/exec/spin_watch.hpp"
#include "sim/state/context.hpp"

extern "C" {
void* __simt_access_slow(const void* p, unsigned size, unsigned op, const void* site);
void __simt_plain_pace();

// C names: the pass looks them up by name. The result is where the access reads or
// writes: the host mapping of a device address (the device view is guarded,
// sim/memory/global_memory.hpp); the pass makes the load or store use it.
inline __attribute__((always_inline, used)) void* __simt_access_inline(const void* p, unsigned size,
                                                                               unsigned op, const void* site) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  if (a - simt::t_stack_lo < simt::t_stack_size) return const_cast<void*>(p);  // the thread's own locals
  // The spin watchdog sees loads where they open a row of the warp log, and on
  // the slow path (sim/exec/warp_log.cpp, sim/exec/runtime_hooks.cpp).
  std::uintptr_t at = a;
  if (simt::detail::record_fast(a, size, simt::MemOp(op), site, at)) return reinterpret_cast<void*>(at);
  return __simt_access_slow(p, size, op, site);
}

// The same for a pointer the pass knows is not a local: a __shared__ variable or a
// kernel's pointer parameter (pass/instrument.cpp). The stack test is the first
// thing the access above does, and a __shared__ array's inner loop pays for it twice
// per step.
inline __attribute__((always_inline, used)) void* __simt_access_nonlocal_inline(const void* p, unsigned size,
                                                                                  unsigned op, const void* site) {
  std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p);
  if (simt::detail::record_fast(at, size, simt::MemOp(op), site, at)) return reinterpret_cast<void*>(at);
  return __simt_access_slow(p, size, op, site);
}

// An access of simtlab's own header code in device code (a vector copy after its
// marker, an atomic's compare-exchange loop): not counted, only translated.
inline __attribute__((always_inline, used)) void* __simt_translate_inline(const void* p) {
  return reinterpret_cast<void*>(simt::detail::host_address(reinterpret_cast<std::uintptr_t>(p)));
}

// The plain twin's rare calls keep every register (clang's preserve_all): the twin's
// inner loop need not keep its values in memory around them. Its accumulator had
// been stored and reloaded every iteration, on its dependency chain (docs/perf-log.md).
#if defined(__clang__) && defined(__x86_64__)
#define SIMT_KEEPS_REGISTERS __attribute__((preserve_all))
#else
#define SIMT_KEEPS_REGISTERS
#endif
inline __attribute__((noinline, cold, used)) SIMT_KEEPS_REGISTERS void __simt_plain_dram_slow(const void* p, unsigned size,
                                                                                              unsigned op) {
  simt::detail::dram_uncounted(reinterpret_cast<std::uintptr_t>(p), size, simt::MemOp(op));
}
inline __attribute__((noinline, cold, used)) SIMT_KEEPS_REGISTERS void __simt_plain_pace_slow() { __simt_plain_pace(); }

// The plain twin's access (a sampled launch's uncounted block): translated, and its
// global sectors given to the DRAM estimate, which counts each once a launch.
// `last_sector` is the access site's own (plain_twin.hpp, last_sector_slot): the
// sector it last gave the estimate, so a walk along a row looks at the launch's
// flags once a sector, not once an element.
inline __attribute__((always_inline, used)) void* __simt_translate_dram_inline(const void* p, unsigned size,
                                                                                unsigned op,
                                                                                std::uint64_t* last_sector) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const simt::AddressMap& m = simt::t_address_map;
  if ((a >> 5) != *last_sector) {
    if (a - m.global_lo >= m.global_size) return const_cast<void*>(p);
    if (!simt::detail::dram_already_seen(m, a, size, simt::MemOp(op))) __simt_plain_dram_slow(p, size, op);
    *last_sector = (a & 31) + size <= 32 ? a >> 5 : ~std::uint64_t(0);
  }
  if (--simt::t_plain_pace_left == 0) __simt_plain_pace_slow();
  return reinterpret_cast<void*>(a + m.global_size);
}

inline __attribute__((always_inline, used)) void __simt_block_inline(unsigned quarters, const void* site) {
  if (simt::ThreadState* t = simt::t_thread) simt::count_block(t, quarters, site);
}

inline __attribute__((always_inline, used)) void __simt_fp_inline(unsigned op, const void* site) {
  if (simt::ThreadState* t = simt::t_thread) t->ops.add(site, op);
}
}  // extern "C"
