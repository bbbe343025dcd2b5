#include "sim/shortcuts/launch_footprint.hpp"

#include "sim/exec/host_lock.hpp"
#include "sim/memory/global_memory.hpp"

#include <algorithm>
#include <atomic>
#include <bit>

namespace simt {

namespace {

// Appends a sector to runs built in increasing order; false once there are too many.
bool append(SectorRuns& runs, std::uint64_t sector) {
  if (!runs.empty() && runs.back().end == sector) {
    ++runs.back().end;
    return true;
  }
  if (runs.size() == kMaxFootprintRuns) return false;
  runs.push_back({sector, sector + 1});
  return true;
}

}  // namespace

// The sector shadow holds (serial << 2) | flags for the last launch that touched a
// sector: 1 = read first, 2 = written, 3 = read and then written
// (sim/count/dram_estimate.cpp). While launches of other GPUs run (sim/exec/host_lock.hpp),
// the sectors another launch touched last are theirs: left for them to take.
LaunchFootprint take_launch_footprint(std::uint32_t serial, bool keep) {
  GlobalMemory& gm = GlobalMemory::instance();
  LaunchFootprint fp;
  const std::uintptr_t base = gm.base();
  const std::uint64_t words = ((gm.allocated_end() - base) / 32 + 63) / 64;
  std::uint64_t* bits = gm.touched_bits();
  const bool others_running = block_phases_in_flight();
  auto mine = [&](std::uint64_t sector) {
    const std::uint32_t v = std::atomic_ref<std::uint32_t>(*gm.sector_shadow(base + sector * 32)).load(std::memory_order_relaxed);
    return (v >> 2) == (serial & 0x3FFFFFFFu);
  };
  for (std::uint64_t w = 0; w < words; ++w) {
    std::uint64_t set = std::atomic_ref<std::uint64_t>(bits[w]).load(std::memory_order_relaxed);
    if (!set) continue;
    if (others_running)
      for (std::uint64_t rest = set; rest; rest &= rest - 1)
        if (!mine(w * 64 + std::uint64_t(std::countr_zero(rest)))) set &= ~(rest & -rest);
    std::atomic_ref<std::uint64_t>(bits[w]).fetch_and(~set, std::memory_order_relaxed);
    if (!keep || !fp.known) continue;
    for (; set; set &= set - 1) {
      const std::uint64_t sector = w * 64 + std::uint64_t(std::countr_zero(set));
      const std::uint32_t v = *gm.sector_shadow(base + sector * 32);
      const std::uint32_t flags = (v >> 2) == (serial & 0x3FFFFFFFu) ? (v & 3u) : 0u;
      const std::uint64_t number = (base >> 5) + sector;
      fp.read_then_written |= flags == 3u;
      fp.known = append(fp.touched, number) && (!(flags & 2u) || append(fp.written, number));
    }
  }
  if (!fp.known) fp.touched.clear(), fp.written.clear();
  return fp;
}

bool overlaps(const SectorRuns& a, const SectorRuns& b) {
  auto i = a.begin(), j = b.begin();
  while (i != a.end() && j != b.end()) {
    if (i->end <= j->begin) ++i;
    else if (j->end <= i->begin) ++j;
    else return true;
  }
  return false;
}

bool covers(const SectorRuns& a, const SectorRuns& b) {
  auto i = a.begin();
  for (const SectorRun& r : b) {
    while (i != a.end() && i->end <= r.begin) ++i;
    if (i == a.end() || i->begin > r.begin || i->end < r.end) return false;
  }
  return true;
}

SectorRuns merge_runs(const SectorRuns& a, const SectorRuns& b) {
  SectorRuns all(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), all.begin(),
             [](const SectorRun& x, const SectorRun& y) { return x.begin < y.begin; });
  SectorRuns out;
  for (const SectorRun& r : all) {
    if (!out.empty() && r.begin <= out.back().end) out.back().end = std::max(out.back().end, r.end);
    else out.push_back(r);
  }
  return out;
}

namespace {
bool same_runs(const SectorRuns& a, const SectorRuns& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const SectorRun& x, const SectorRun& y) { return x.begin == y.begin && x.end == y.end; });
}
}  // namespace

bool same_footprint(const LaunchFootprint& a, const LaunchFootprint& b) {
  return a.known && b.known && same_runs(a.touched, b.touched) && same_runs(a.written, b.written);
}

bool overlaps_bytes(const SectorRuns& a, std::uintptr_t begin, std::uint64_t bytes) {
  if (bytes == 0) return false;
  const std::uint64_t first = begin >> 5, last = (begin + bytes + 31) >> 5;
  auto it = std::upper_bound(a.begin(), a.end(), first, [](std::uint64_t s, const SectorRun& r) { return s < r.end; });
  return it != a.end() && it->begin < last;
}

SectorRun sectors_of_bytes(std::uintptr_t begin, std::uint64_t bytes) { return {begin >> 5, (begin + bytes + 31) >> 5}; }

// A run's sectors may end past its allocation's last byte (sizes need not be
// multiples of 32), never past the allocation's last page.
bool sectors_live(const SectorRuns& runs) {
  const GlobalMemory& gm = GlobalMemory::instance();
  for (const SectorRun& r : runs) {
    const Allocation* a = gm.find(r.begin * 32, 1);
    if (!a || (r.end - 1) * 32 >= a->base + a->size) return false;
  }
  return true;
}

}  // namespace simt
