// The device view's guard, closed by every module the compiler front end built.
#include "sim/exec/crash_guard.hpp"
#include "sim/memory/global_memory.hpp"
#include "sim/options/runtime_options.hpp"
#include "sim/symbols/compiler_sites.hpp"

// Called by a constructor of every module the compiler front end built (with or
// without kernels): such code reads device memory only through the host mapping, so
// the device view is guarded and anything else faults with its line
// (docs/frontend.md, "Fail loud"). The option guard=0 leaves it open (to compare).
extern "C" void __simt_guard_device_memory(const void* const* kernels, unsigned count) {
  simt::note_instrumented_kernels(kernels, count);
  if (!simt::runtime_options().guard) return;
  simt::guard_this_thread();
  simt::GlobalMemory::instance().set_guarded(true);
}
