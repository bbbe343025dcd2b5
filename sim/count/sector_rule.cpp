#include "sim/count/sector_rule.hpp"

#include <algorithm>

namespace simt {

std::uint32_t distinct_sectors(const WarpAccess& a, std::uint64_t* sectors) {
  int n = 0;
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!(a.active >> lane & 1)) continue;
    for (std::uint64_t s = a.addr[lane] >> 5; s <= (a.addr[lane] + a.size - 1) >> 5 && n < 64; ++s)
      if (n == 0 || sectors[n - 1] != s) sectors[n++] = s;  // neighbouring lanes mostly share one
  }
  if (!std::is_sorted(sectors, sectors + n)) std::sort(sectors, sectors + n);
  return static_cast<std::uint32_t>(std::unique(sectors, sectors + n) - sectors);
}

std::uint32_t count_sectors(const WarpAccess& a) {
  std::uint64_t sectors[64];
  return distinct_sectors(a, sectors);
}

}  // namespace simt
