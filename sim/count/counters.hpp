// The counters a launch accumulates, per source site and in total. Their names
// and definitions (Nsight Compute's where one exists) are in sim/count/metrics.cpp and
// docs/counters.md.
#pragma once
#include "sim/memory/events.hpp"

#include <array>
#include <cstdint>
#include <unordered_map>

namespace simt {

enum class Counter : int {
  GlobalLdRequests, GlobalLdSectors, GlobalStRequests, GlobalStSectors,
  GlobalAtomRequests, GlobalAtomSectors,
  GlobalLdBytes, GlobalStBytes,  // bytes the lanes asked for (vs sectors*32 moved)
  SharedLdInst, SharedLdWavefronts, SharedLdConflicts,
  SharedStInst, SharedStWavefronts, SharedStConflicts,
  SharedAtomInst,
  FAdd, FMul, FFma, DAdd, DMul, DFma, FDiv, DDiv, FSqrt, DSqrt,
  WarpInst, ThreadInst,          // over the instructions simtlab counts
  WarpCollectives,
  DramReadBytes, DramWriteBytes,  // compulsory-traffic estimate
  Count
};
constexpr int kCounterCount = static_cast<int>(Counter::Count);

struct Counters {
  std::array<std::uint64_t, kCounterCount> v{};
  std::uint64_t& operator[](Counter c) { return v[static_cast<int>(c)]; }
  std::uint64_t operator[](Counter c) const { return v[static_cast<int>(c)]; }
  Counters& operator+=(const Counters& o) {
    for (int i = 0; i < kCounterCount; ++i) v[i] += o.v[i];
    return *this;
  }
  std::uint64_t flops() const {
    const Counters& c = *this;
    return c[Counter::FAdd] + c[Counter::FMul] + 2 * c[Counter::FFma] + c[Counter::DAdd] +
           c[Counter::DMul] + 2 * c[Counter::DFma];
  }
};

using SiteCounters = std::unordered_map<Site, Counters>;

inline Counter fp_counter(std::uint32_t op) {
  return static_cast<Counter>(static_cast<int>(Counter::FAdd) + static_cast<int>(op));
}

}  // namespace simt
