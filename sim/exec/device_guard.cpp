// The device view's guard, closed by every module the compiler front end built.
#include "sim/exec/crash_guard.hpp"
#include "sim/memory/global_memory.hpp"
#include "sim/symbols/compiler_sites.hpp"

#include <cstdlib>
#include <cstring>

// Called by a constructor of every module the compiler front end built (with or
// without kernels): such code reads device memory only through the host mapping, so
// the device view is guarded and anything else faults with its line
// (docs/frontend.md, "Fail loud"). SIMT_GUARD=0 leaves it open (to compare).
extern "C" void __simt_guard_device_memory(const void* const* kernels, unsigned count) {
  simt::note_instrumented_kernels(kernels, count);
  static const bool guard = [] {
    const char* env = std::getenv("SIMT_GUARD");
    return !(env && std::strcmp(env, "0") == 0);
  }();
  if (!guard) return;
  simt::guard_this_thread();
  simt::GlobalMemory::instance().set_guarded(true);
}
