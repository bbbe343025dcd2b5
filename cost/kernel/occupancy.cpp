#include "cost/kernel/occupancy.hpp"
#include "util/occupancy.hpp"

#include <algorithm>
#include <cmath>

namespace simt::cost {

Occupancy occupancy(const KernelCounters& c, const KernelRates& r) {
  Occupancy o;
  const double warps = c.warps_per_block();
  const ResidentBlocks rb = resident_blocks_per_sm(warps, c.shared_bytes_per_block, r.max_warps_per_sm,
                                                   r.max_blocks_per_sm, r.shared_per_sm, r.shared_reserved_per_block);
  const int resident = rb.blocks;
  o.limiter = rb.limiter;
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
