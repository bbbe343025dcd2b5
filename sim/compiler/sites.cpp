#include "sim/compiler/sites.hpp"

#include "sim/exec/crash_guard.hpp"
#include "sim/memory/global_memory.hpp"
#include "sim/options/runtime_options.hpp"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_set>
#include <vector>

namespace simt {

namespace {

struct Range {
  std::uintptr_t lo, hi;
};
std::mutex g_mutex;
std::vector<Range> g_ranges;  // one per loaded module; few, so a linear search
std::unordered_set<const void*> g_instrumented_kernels;

}  // namespace

bool instrumented_kernel(const void* fn) {
  std::lock_guard lock(g_mutex);
  return g_instrumented_kernels.count(fn) != 0;
}

const CompilerSite* compiler_site(Site site) {
  const auto a = reinterpret_cast<std::uintptr_t>(site);
  std::lock_guard lock(g_mutex);
  for (const Range& r : g_ranges)
    if (a >= r.lo && a < r.hi && (a - r.lo) % sizeof(CompilerSite) == 0) return reinterpret_cast<const CompilerSite*>(a);
  return nullptr;
}

}  // namespace simt

// Every translation unit of a module registers the module's whole section.
extern "C" void __simt_register_sites(const void* begin, const void* end) {
  const auto lo = reinterpret_cast<std::uintptr_t>(begin), hi = reinterpret_cast<std::uintptr_t>(end);
  std::lock_guard lock(simt::g_mutex);
  for (const simt::Range& r : simt::g_ranges)
    if (r.lo == lo) return;
  simt::g_ranges.push_back({lo, hi});
}

// Called by a constructor of every module the compiler front end built (with or
// without kernels): such code reads device memory only through the host mapping, so
// the device view is guarded and anything else faults with its line
// (docs/frontend.md, "Fail loud"). The option guard=0 leaves it open (to compare).
extern "C" void __simt_guard_device_memory(const void* const* kernels, unsigned count) {
  {
    std::lock_guard lock(simt::g_mutex);
    simt::g_instrumented_kernels.insert(kernels, kernels + count);
  }
  if (!simt::runtime_options().guard) return;
  simt::guard_this_thread();
  simt::GlobalMemory::instance().set_guarded(true);
}
