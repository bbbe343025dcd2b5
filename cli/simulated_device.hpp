// Maps a catalog device (cost/) onto the limits the simulator enforces (sim/).
#pragma once
#include "cost/catalog.hpp"
#include "sim/exec/device_limits.hpp"

namespace simt::cli {

inline DeviceLimits limits_of(const cost::DeviceSpec& d) {
  DeviceLimits l;
  l.name = d.name;
  l.max_threads_per_block = static_cast<unsigned>(d.max_threads_per_block);
  if (d.shared_per_block_bytes > 0) l.shared_per_block = static_cast<std::uint64_t>(d.shared_per_block_bytes);
  if (d.shared_per_block_optin_bytes > 0)
    l.shared_per_block_optin = static_cast<std::uint64_t>(d.shared_per_block_optin_bytes);
  if (d.l2_bytes > 0) l.l2_bytes = static_cast<std::uint64_t>(d.l2_bytes);
  if (d.hbm_bytes > 0) l.global_memory_bytes = static_cast<std::uint64_t>(d.hbm_bytes);
  return l;
}

}  // namespace simt::cli
