#include "sim/count/warp_trace.hpp"

#include <algorithm>
#include <functional>

namespace simt {

namespace {
bool by_key(const TracedAccess& a, const TracedAccess& b) { return a.key() < b.key(); }
}  // namespace

bool WarpTrace::wants(Site site, std::uint64_t block, std::uint32_t warp, std::uint32_t seq) {
  if (n_ == 0) return false;
  auto it = by_site_.find(site);
  if (it == by_site_.end() || it->second.size() < n_) return true;
  return std::make_tuple(block, warp, seq) < it->second.back().key();
}

void WarpTrace::add(const TracedAccess& t) {
  if (n_ == 0) return;
  std::vector<TracedAccess>& rows = by_site_[t.row.site];
  if (rows.size() >= n_ && !(t.key() < rows.back().key())) return;
  rows.insert(std::upper_bound(rows.begin(), rows.end(), t, by_key), t);
  if (rows.size() > n_) rows.pop_back();
}

void WarpTrace::merge_from(WarpTrace& other) {
  for (auto& [site, rows] : other.by_site_)
    for (const TracedAccess& t : rows) add(t);
  other.by_site_.clear();
}

AccessTrace WarpTrace::take() {
  AccessTrace out;
  for (auto& [site, rows] : by_site_) out.insert(out.end(), rows.begin(), rows.end());
  by_site_.clear();
  // Grouped by site (the report orders them by file and line), each site's rows by key.
  std::stable_sort(out.begin(), out.end(), [](const TracedAccess& a, const TracedAccess& b) {
    if (a.row.site != b.row.site) return std::less<Site>()(a.row.site, b.row.site);
    return a.key() < b.key();
  });
  return out;
}

}  // namespace simt
