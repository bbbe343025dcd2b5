#include "sim/count/warp_grouping.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <stdexcept>
#include <unordered_map>
#include <utility>

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

// Per site, the out[] index of each of its executions so far (the k-th at k), and how
// many times the current lane has executed it. A loop visits its few sites in turn:
// the last one found and a short list are tried before a hash.
class SiteRuns {
 public:
  struct Runs {
    std::vector<std::uint32_t> instruction;
    std::size_t seen = 0;
  };
  SiteRuns() { few_.reserve(kFew); }
  Runs& of(Site site) {
    if (site == last_site_) return *last_;
    last_site_ = site;
    for (auto& [s, r] : few_)
      if (s == site) return *(last_ = &r);
    if (few_.size() < kFew) return *(last_ = &few_.emplace_back(site, Runs{}).second);
    return *(last_ = &many_[site]);
  }
  void next_lane() {
    for (auto& [s, r] : few_) r.seen = 0;
    for (auto& [s, r] : many_) r.seen = 0;
  }

 private:
  static constexpr std::size_t kFew = 16;
  std::vector<std::pair<Site, Runs>> few_;  // reserved: pointers into it stay valid
  std::unordered_map<Site, Runs> many_;     // node-based: so do these
  Site last_site_ = nullptr;
  Runs* last_ = nullptr;
};

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
  // First each event's instruction (out[] index, made in order of first appearance),
  // then the lanes' addresses filed a window of events at a time: a lane between two
  // barriers may make 16,384 accesses, and filing one lane's whole log before the next
  // walked every instruction 32 times, each time out of the CPU's caches.
  if (lanes.size() > 32) throw std::logic_error("group_warp_accesses: a warp has at most 32 lanes");
  SiteRuns runs;
  std::array<std::vector<std::uint32_t>, 32> instruction_of;
  std::size_t longest = 0;
  for (unsigned lane = 0; lane < lanes.size(); ++lane) {
    if (!lanes[lane]) continue;
    runs.next_lane();
    std::vector<std::uint32_t>& index = instruction_of[lane];
    index.reserve(lanes[lane]->size());
    for (const MemEvent& e : *lanes[lane]) {
      SiteRuns::Runs& r = runs.of(e.site);
      std::vector<std::uint32_t>& executions = r.instruction;
      const std::size_t k = r.seen++;
      if (k == executions.size()) {
        executions.push_back(static_cast<std::uint32_t>(out.size()));
        out.push_back(start_access(e));
      }
      index.push_back(executions[k]);
    }
    longest = std::max(longest, lanes[lane]->size());
  }
  constexpr std::size_t kWindow = 64;
  for (std::size_t from = 0; from < longest; from += kWindow)
    for (unsigned lane = 0; lane < lanes.size(); ++lane) {
      if (!lanes[lane]) continue;
      const std::vector<MemEvent>& log = *lanes[lane];
      const std::size_t to = std::min(log.size(), from + kWindow);
      for (std::size_t i = from; i < to; ++i) add_lane(out[instruction_of[lane][i]], lane, log[i]);
    }
}

}  // namespace simt
