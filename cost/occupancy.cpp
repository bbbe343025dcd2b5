#include "cost/occupancy.hpp"

#include <algorithm>
#include <cmath>

namespace simt::cost {

Occupancy occupancy(const KernelCounters& c, const KernelRates& r) {
  Occupancy o;
  const double warps = c.warps_per_block();
  int by_warps = static_cast<int>(r.max_warps_per_sm / warps);
  int resident = std::min(r.max_blocks_per_sm, by_warps);
  o.limiter = by_warps < r.max_blocks_per_sm ? "threads" : "blocks per SM";
  if (c.shared_bytes_per_block > 0 && r.shared_per_sm > 0) {
    int by_shared = static_cast<int>(r.shared_per_sm / (c.shared_bytes_per_block + r.shared_reserved_per_block));
    if (by_shared < resident) {
      resident = by_shared;
      o.limiter = "shared memory";
    }
  }
  o.resident_blocks = std::max(resident, 1);  // the launch checks refuse what fits nowhere
  o.waves = std::ceil(c.blocks / (double(o.resident_blocks) * r.sms));
  o.blocks_total = c.blocks;
  o.busiest_sm_blocks = std::ceil(c.blocks / r.sms);
  o.busy_sms = std::min<double>(c.blocks, r.sms);
  o.warps_per_sm = std::min<double>(o.resident_blocks, o.busiest_sm_blocks) * warps;
  o.busiest_share = o.busiest_sm_blocks / c.blocks;
  return o;
}

}  // namespace simt::cost
