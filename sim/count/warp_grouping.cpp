#include "sim/count/warp_grouping.hpp"

#include <algorithm>
#include <bit>
#include <map>

namespace simt {

namespace {

bool same_site_sequence(const std::vector<MemEvent>& a, const std::vector<MemEvent>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].site != b[i].site) return false;
  return true;
}

WarpAccess start_access(const MemEvent& e) {
  WarpAccess w;
  w.site = e.site;
  w.op = e.op();
  w.space = e.space();
  w.size = e.size();
  return w;
}

void add_lane(WarpAccess& w, unsigned lane, const MemEvent& e) {
  w.active |= 1u << lane;
  w.addr[lane] = e.addr();
  w.size = std::max(w.size, e.size());
}

}  // namespace

void group_warp_accesses(std::span<const std::vector<MemEvent>* const> lanes,
                         std::vector<WarpAccess>& out) {
  const std::vector<MemEvent>* first = nullptr;
  bool uniform = true;
  for (auto* l : lanes) {
    if (!l || l->empty()) continue;
    if (!first) first = l;
    else if (!same_site_sequence(*first, *l)) uniform = false;
  }
  if (!first) return;
  if (uniform) {  // the common, convergent case: event i of every lane is one instruction
    for (std::size_t i = 0; i < first->size(); ++i) {
      WarpAccess w = start_access((*first)[i]);
      for (unsigned lane = 0; lane < lanes.size(); ++lane)
        if (lanes[lane] && !lanes[lane]->empty()) add_lane(w, lane, (*lanes[lane])[i]);
      out.push_back(w);
    }
    return;
  }
  // Divergent: the k-th execution of a site by each lane is the same instruction.
  std::map<std::pair<Site, std::size_t>, std::size_t> index;
  for (unsigned lane = 0; lane < lanes.size(); ++lane) {
    if (!lanes[lane]) continue;
    std::map<Site, std::size_t> seen;
    for (const MemEvent& e : *lanes[lane]) {
      std::size_t k = seen[e.site]++;
      auto [it, fresh] = index.try_emplace({e.site, k}, out.size());
      if (fresh) out.push_back(start_access(e));
      add_lane(out[it->second], lane, e);
    }
  }
}

std::uint32_t distinct_sectors(const WarpAccess& a, std::uint64_t* sectors) {
  int n = 0;
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!(a.active >> lane & 1)) continue;
    for (std::uint64_t s = a.addr[lane] >> 5; s <= (a.addr[lane] + a.size - 1) >> 5 && n < 64; ++s)
      sectors[n++] = s;
  }
  if (!std::is_sorted(sectors, sectors + n)) std::sort(sectors, sectors + n);
  return static_cast<std::uint32_t>(std::unique(sectors, sectors + n) - sectors);
}

std::uint32_t count_sectors(const WarpAccess& a) {
  std::uint64_t sectors[64];
  return distinct_sectors(a, sectors);
}

bool map_banks(const WarpAccess& a, BankMap& m) {
  m.used = 0;
  for (std::uint32_t active = a.active; active; active &= active - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(active));
    const std::uint64_t w = a.addr[lane] >> 2;
    const unsigned bank = static_cast<unsigned>(w & 31);
    if (!(m.used >> bank & 1)) {
      m.used |= 1u << bank;
      m.word[bank] = w;
      m.lanes[bank] = 1u << lane;
    } else if (m.word[bank] == w) {
      m.lanes[bank] |= 1u << lane;
    } else {
      return false;
    }
  }
  return true;
}

SharedCost shared_wavefronts(const WarpAccess& a) {
  BankMap banks;
  if (a.size <= 4 && map_banks(a, banks)) return {1, 1};
  // 4-byte (and narrower) accesses are served for the whole warp at once; 8- and
  // 16-byte accesses per half-warp. A wavefront delivers one word per bank, so a
  // part needs as many wavefronts as the busiest bank has distinct words; ideally
  // ceil(distinct words / 32). (Measured on an H200: a whole-warp broadcast LDS.128
  // is 2 wavefronts, a contiguous one 4; docs/validation/h200-patterns.md.)
  const unsigned lanes_per_phase = a.size <= 4 ? 32 : 16;
  SharedCost cost{0, 0};
  for (unsigned phase = 0; phase < 32 / lanes_per_phase; ++phase) {
    std::uint64_t words[128];
    int n = 0;
    for (unsigned lane = phase * lanes_per_phase; lane < (phase + 1) * lanes_per_phase; ++lane) {
      if (!(a.active >> lane & 1)) continue;
      for (std::uint64_t w = a.addr[lane] >> 2; w <= (a.addr[lane] + a.size - 1) >> 2; ++w) words[n++] = w;
    }
    if (n == 0) continue;
    if (!std::is_sorted(words, words + n)) std::sort(words, words + n);  // usually already in lane order
    n = static_cast<int>(std::unique(words, words + n) - words);
    unsigned per_bank[32] = {};
    unsigned worst = 0;
    for (int i = 0; i < n; ++i) worst = std::max(worst, ++per_bank[words[i] & 31]);
    cost.wavefronts += worst;
    cost.ideal += static_cast<std::uint32_t>((n + 31) / 32);
  }
  return cost;
}

InstructionCost cost_of(const WarpAccess& a) {
  InstructionCost cost;
  if (a.space == Space::Global) cost.sectors = count_sectors(a);
  else if (a.op != MemOp::Atomic) cost.shared = shared_wavefronts(a);
  return cost;
}

void count_access(const WarpAccess& a, const InstructionCost& cost, Counters& c) {
  const SharedCost& s = cost.shared;
  // A full warp is the usual case; without -mpopcnt std::popcount is a library call.
  const unsigned lanes = a.active == ~0u ? 32u : static_cast<unsigned>(std::popcount(a.active));
  c[Counter::WarpInst] += 1;
  c[Counter::ThreadInst] += lanes;
  if (a.space == Space::Global) {
    const std::uint32_t sectors = cost.sectors;
    switch (a.op) {
      case MemOp::Load:
        c[Counter::GlobalLdRequests] += 1;
        c[Counter::GlobalLdSectors] += sectors;
        c[Counter::GlobalLdBytes] += std::uint64_t(lanes) * a.size;
        break;
      case MemOp::Store:
        c[Counter::GlobalStRequests] += 1;
        c[Counter::GlobalStSectors] += sectors;
        c[Counter::GlobalStBytes] += std::uint64_t(lanes) * a.size;
        break;
      case MemOp::Atomic:
        c[Counter::GlobalAtomRequests] += 1;
        c[Counter::GlobalAtomSectors] += sectors;
        break;
    }
    return;
  }
  if (a.op == MemOp::Atomic) {
    c[Counter::SharedAtomInst] += 1;
    return;
  }
  const bool load = a.op == MemOp::Load;
  c[load ? Counter::SharedLdInst : Counter::SharedStInst] += 1;
  c[load ? Counter::SharedLdWavefronts : Counter::SharedStWavefronts] += s.wavefronts;
  c[load ? Counter::SharedLdConflicts : Counter::SharedStConflicts] += s.wavefronts - s.ideal;
}

}  // namespace simt
