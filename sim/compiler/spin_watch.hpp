// The watchdog's state (docs/frontend.md, "Watchdog"): the running thread's last
// load and how many times in a row it repeated. A spin-wait re-reads one word at
// one site without ever reaching a barrier; its warp's log would grow without bound.
#pragma once
#include "sim/exec/context.hpp"

#include <cstdint>

namespace simt {

struct SpinWatch {
  const ThreadState* thread = nullptr;
  Site site = nullptr;
  std::uintptr_t addr = 0;
  std::uint32_t repeats = 0;
};
inline constexpr std::uint32_t kSpinLimit = std::uint32_t(1) << 18;
extern thread_local constinit SpinWatch t_spin SIMT_FAST_TLS;

// Ends the block with the watchdog's diagnostic (sim/compiler/runtime_hooks.cpp).
[[noreturn]] void spin_detected(ThreadState* t, Site site, std::uintptr_t addr);

// Inlined into kernels for every load of device memory.
SIMT_INLINE void watch_load(ThreadState* t, Site site, std::uintptr_t a) {
  SpinWatch& w = t_spin;
  if (w.addr == a && w.site == site && w.thread == t) {
    if (++w.repeats == kSpinLimit) spin_detected(t, site, a);
    return;
  }
  w = {t, site, a, 0};
}

}  // namespace simt
