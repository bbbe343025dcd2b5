// The 32-byte sectors one launch read and wrote, as runs of consecutive sectors: what
// a repeat of the launch depends on (sim/shortcuts/repeat_launch.hpp). Taken when the
// launch ends, from the touched bits and the sector shadow (GlobalMemory).
#pragma once
#include <cstdint>
#include <vector>

namespace simt {

struct SectorRun {
  std::uint64_t begin, end;  // sector numbers (address / 32), [begin, end)
};
using SectorRuns = std::vector<SectorRun>;  // sorted, disjoint

struct LaunchFootprint {
  SectorRuns touched;  // read or written
  SectorRuns written;
  bool read_then_written = false;  // read a sector before writing it (an in-place update)
  // false: too scattered to keep (more than kMaxFootprintRuns runs): counts as
  // touching all of memory.
  bool known = true;
};

inline constexpr std::size_t kMaxFootprintRuns = std::size_t(1) << 18;

// The footprint of the launch numbered `serial`, which has just ended; clears the
// touched bits for the next launch. With `keep` false only clears them.
LaunchFootprint take_launch_footprint(std::uint32_t serial, bool keep);

bool overlaps(const SectorRuns& a, const SectorRuns& b);
// Is every sector of `b` one of `a`'s?
bool covers(const SectorRuns& a, const SectorRuns& b);
// The sectors of either: sorted and disjoint again.
SectorRuns merge_runs(const SectorRuns& a, const SectorRuns& b);
bool same_footprint(const LaunchFootprint& a, const LaunchFootprint& b);
// The sectors holding the bytes [begin, begin + bytes): one run.
SectorRun sectors_of_bytes(std::uintptr_t begin, std::uint64_t bytes);
// Do these sectors lie in live allocations (their bytes exist and may be read)?
bool sectors_live(const SectorRuns& runs);
// Does `a` touch any sector of the bytes [begin, begin + bytes)?
bool overlaps_bytes(const SectorRuns& a, std::uintptr_t begin, std::uint64_t bytes);

}  // namespace simt
