#include "sim/symbols/compiler_sites.hpp"


#include <algorithm>
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

void note_instrumented_kernels(const void* const* kernels, unsigned count) {
  std::lock_guard lock(g_mutex);
  g_instrumented_kernels.insert(kernels, kernels + count);
}

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

bool straight_line_site(Site site) {
  const CompilerSite* c = compiler_site(site);
  return c && (c->flags & kSiteStraightLine) != 0;
}

std::uint32_t site_loop(Site site) {
  const CompilerSite* c = compiler_site(site);
  return c ? c->loop : 0;
}

std::uint32_t site_block(Site site) {
  const CompilerSite* c = compiler_site(site);
  return c ? c->flags >> kSiteBlockShift : 0;
}

std::uint32_t site_copies(Site site) {
  const CompilerSite* c = compiler_site(site);
  return c ? std::max(1u, c->flags >> kSiteCopiesShift & kSiteCopiesMask) : 1;
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
