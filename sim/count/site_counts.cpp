#include "sim/count/site_counts.hpp"

namespace simt {

void SiteCounts::add_new(Site site, std::uint32_t kind) {
  Entry& e = slots_[slot_of(site)];
  if (e.site == nullptr) {
    e = {site, kind, 1};
    used_.push_back(static_cast<std::uint8_t>(slot_of(site)));
    return;
  }
  for (Entry& o : overflow_)
    if (o.site == site) {
      ++o.count;
      return;
    }
  overflow_.push_back({site, kind, 1});
}

}  // namespace simt
