#include "sim/count/site_counts.hpp"

namespace simt {

void WarpSiteCounts::add_new(Site site, std::uint32_t kind, unsigned lane) {
  Entry& e = slots_[slot_of(site)];
  if (e.site == nullptr) {
    e.site = site;
    e.kind = kind;
    e.count[lane] = 1;
    used_[used_count_++] = static_cast<std::uint8_t>(slot_of(site));
    return;
  }
  for (Entry& o : overflow_)
    if (o.site == site) {
      ++o.count[lane];
      return;
    }
  overflow_.push_back({site, kind, {}});
  overflow_.back().count[lane] = 1;
}

}  // namespace simt
