#include "sim/count/atomic_rule.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace simt {

SectorRounds atomic_rounds(const WarpAccess& a) {
  SectorRounds r;
  for (unsigned i = 0; i < 32; ++i) {
    if (!(a.active >> i & 1)) continue;
    unsigned same = 0;  // lanes updating this lane's address
    for (unsigned j = 0; j < 32; ++j) same += (a.active >> j & 1) && a.addr[j] == a.addr[i];
    const std::uint64_t sector = a.addr[i] >> 5;
    unsigned k = 0;
    while (k < r.n && r.sector[k] != sector) ++k;
    if (k == r.n) r.sector[r.n] = sector, r.rounds[r.n++] = 0;
    r.rounds[k] = std::max(r.rounds[k], same);
  }
  return r;
}

std::uint32_t atomic_sectors(const WarpAccess& a) {
  const SectorRounds r = atomic_rounds(a);
  std::uint32_t sum = 0;
  for (unsigned k = 0; k < r.n; ++k) sum += r.rounds[k];
  return sum;
}

void AtomicTally::add(const WarpAccess& a) {
  const SectorRounds r = atomic_rounds(a);
  for (unsigned k = 0; k < r.n; ++k) rounds_[r.sector[k] >> (kAtomicGranuleShift - 5)] += r.rounds[k];
}

void AtomicTally::merge_into(AtomicTally& to) {
  for (const auto& [block, n] : rounds_) to.rounds_[block] += n;
  rounds_.clear();
}

void AtomicTally::write(Counters& c, double scale) const {
  std::uint64_t hot = 0;
  for (const auto& [block, n] : rounds_) hot = std::max(hot, n);
  c[Counter::AtomicHotRounds] = static_cast<std::uint64_t>(std::llround(double(hot) * scale));
  c[Counter::AtomicBlocks] = rounds_.size();
}

}  // namespace simt
