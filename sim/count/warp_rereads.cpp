#include "sim/count/warp_rereads.hpp"

#include <algorithm>
#include <functional>

namespace simt {

void WarpRereads::reset() {
  for (auto& warp : last_)
    for (Last& l : warp) l.site = nullptr;
}

std::uint32_t WarpRereads::note(unsigned warp, Site site, const std::uint64_t* sectors, std::uint32_t n) {
  Last& last = last_[warp % 32][std::hash<Site>{}(site) % kSlots];
  std::uint32_t again = 0;
  if (last.site == site) {  // both sorted: one merge
    const std::uint64_t *a = sectors, *a_end = sectors + n;
    const std::uint64_t *b = last.sectors.data(), *b_end = b + last.n;
    while (a != a_end && b != b_end) {
      if (*a < *b) ++a;
      else if (*b < *a) ++b;
      else ++again, ++a, ++b;
    }
  }
  last.site = site;
  last.n = std::min<std::uint32_t>(n, kKept);
  std::copy(sectors, sectors + last.n, last.sectors.begin());
  return again;
}

}  // namespace simt
