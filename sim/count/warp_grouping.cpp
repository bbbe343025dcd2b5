#include "sim/count/warp_grouping.hpp"

#include <algorithm>
#include <bit>
#include <unordered_map>

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
  // Per site, the instruction of each execution so far, in a vector indexed by k (a
  // lane's executions of a site come in order): one lookup of the site per event, no
  // ordered map of (site, k) — a lane between two barriers may make 10^5 accesses.
  struct SiteRuns {
    std::vector<std::size_t> instruction;  // out[] index of the k-th execution
    std::size_t seen = 0;                  // executions by the current lane
  };
  std::unordered_map<Site, SiteRuns> runs;
  Site last_site = nullptr;
  SiteRuns* last = nullptr;
  for (unsigned lane = 0; lane < lanes.size(); ++lane) {
    if (!lanes[lane]) continue;
    for (auto& [site, r] : runs) r.seen = 0;
    for (const MemEvent& e : *lanes[lane]) {
      if (e.site != last_site) last_site = e.site, last = &runs[e.site];
      const std::size_t k = last->seen++;
      if (k == last->instruction.size()) {
        last->instruction.push_back(out.size());
        out.push_back(start_access(e));
      }
      add_lane(out[last->instruction[k]], lane, e);
    }
  }
}

}  // namespace simt
