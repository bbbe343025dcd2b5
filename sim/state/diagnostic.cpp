// What a diagnostic says: the kind's name and the one-line text printed for it.
#include "sim/state/diagnostic.hpp"

#include <fmt/format.h>

namespace simt {

namespace {

std::string dim(const uint3& d) { return fmt::format("({},{},{})", d.x, d.y, d.z); }

}  // namespace

const char* diag_kind_name(DiagKind k) {
  switch (k) {
    case DiagKind::OutOfBoundsGlobal: return "out-of-bounds global access";
    case DiagKind::OutOfBoundsShared: return "out-of-bounds shared access";
    case DiagKind::OutOfBoundsLocal: return "out-of-bounds local access";
    case DiagKind::InvalidAddress: return "invalid address";
    case DiagKind::Misaligned: return "misaligned access";
    case DiagKind::SharedRace: return "shared-memory race";
    case DiagKind::GlobalRace: return "global-memory race";
    case DiagKind::UninitializedShared: return "uninitialised shared-memory read";
    case DiagKind::DivergentBarrier: return "divergent barrier";
    case DiagKind::Deadlock: return "deadlock";
    case DiagKind::WarpSyncMisuse: return "warp-collective misuse";
    case DiagKind::DeviceAssert: return "device assertion";
    case DiagKind::Trap: return "__trap()";
    case DiagKind::StackOverflow: return "stack overflow";
    case DiagKind::LaunchConfig: return "invalid launch";
    case DiagKind::ExitedBeforeBarrier: return "warning: threads exited before a barrier";
    case DiagKind::ExitedBeforeCollective: return "warning: lanes exited before a warp collective";
    case DiagKind::Unsupported: return "not supported by the simulator";
  }
  return "error";
}

std::string format_diagnostic(const Diagnostic& d) {
  if (d.kind == DiagKind::LaunchConfig)
    return fmt::format("simt: {} of kernel {}: {}", diag_kind_name(d.kind), d.kernel, d.message);
  if (d.kind == DiagKind::Unsupported && !d.site && d.location.empty())  // refused before any thread ran
    return fmt::format("simt: launch of kernel {} {}: {}", d.kernel, diag_kind_name(d.kind), d.message);
  std::string s = fmt::format("simt: {} in kernel {}, block {}, thread {}{}:\n  {}", diag_kind_name(d.kind), d.kernel,
                              dim(d.block), dim(d.thread), d.location.empty() ? "" : ", at " + d.location, d.message);
  if (!d.allocation.empty()) s += fmt::format("\n  nearest allocation: {}", d.allocation);
  return s;
}

}  // namespace simt
