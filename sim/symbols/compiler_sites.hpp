// Sites made by the compiler front end's pass (sim/compiler/pass/sites.cpp): each
// is the address of a constant record naming its source location, in the section
// simt_sites of the program or library; a constructor registers the section.
// Other sites are code addresses (sim/symbols/symbols.cpp resolves those).
#pragma once
#include "sim/types/events.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace simt {

struct CompilerSite {  // the layout the pass emits
  const char* file;
  const char* function;
  std::uint32_t line, column;
  std::uint32_t flags;  // kSiteStraightLine, kSiteVolatile, copies, block << kSiteBlockShift (sim/types/events.hpp)
  std::uint32_t loop;   // loop id | kSiteLoopBatched (sim/types/events.hpp); 0 outside loops
};
static_assert(sizeof(CompilerSite) == 32);

// Whether the site is a compiler record marked straight-line.
bool straight_line_site(Site site);

// The loop field of a compiler record (0: outside loops, or not a compiler site).
std::uint32_t site_loop(Site site);
// The basic block of a compiler record (kSiteBlockShift; 0: unknown).
std::uint32_t site_block(Site site);
// The most load instructions of a compiler record one basic block holds
// (kSiteCopiesShift): the copies a fully unrolled loop made; at least 1.
std::uint32_t site_copies(Site site);

// The record behind a site, if the pass made it.
const CompilerSite* compiler_site(Site site);

// Whether the pass built this kernel: its accesses use the host mapping, so the
// guarded device view stays closed while it runs. `simt bench`'s uninstrumented
// kernels read the view itself: it is opened for them.
bool instrumented_kernel(const void* fn);
// Files the kernels of a module the pass built (sim/exec/device_guard.cpp).
void note_instrumented_kernels(const void* const* kernels, unsigned count);

}  // namespace simt

extern "C" void __simt_register_sites(const void* begin, const void* end);
