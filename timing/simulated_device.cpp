#include "timing/simulated_device.hpp"

#include "cost/catalog/catalog.hpp"
#include "sim/exec/executor.hpp"
#include "timing/clock_model.hpp"

namespace simt::timing {

DeviceLimits simulated_device_limits(const std::string& name) {
  const cost::DeviceSpec& d = cost::Catalog::builtin().device(name);
  DeviceLimits l;
  l.name = d.name;
  l.max_threads_per_block = static_cast<unsigned>(d.max_threads_per_block);
  l.max_threads_per_sm = static_cast<unsigned>(d.max_threads_per_sm);
  l.registers_per_sm = static_cast<unsigned>(d.registers_per_sm);
  if (d.sm_count > 0) l.sm_count = static_cast<unsigned>(d.sm_count);
  if (auto dot = d.compute_capability.find('.'); dot != std::string::npos) {
    l.cc_major = std::stoi(d.compute_capability.substr(0, dot));
    l.cc_minor = std::stoi(d.compute_capability.substr(dot + 1));
  }
  if (d.shared_per_sm_bytes > 0) l.shared_per_sm = static_cast<std::uint64_t>(d.shared_per_sm_bytes);
  if (d.boost_clock_ghz > 0) l.clock_khz = static_cast<unsigned>(d.boost_clock_ghz * 1e6);
  if (d.shared_per_block_bytes > 0) l.shared_per_block = static_cast<std::uint64_t>(d.shared_per_block_bytes);
  if (d.shared_per_block_optin_bytes > 0)
    l.shared_per_block_optin = static_cast<std::uint64_t>(d.shared_per_block_optin_bytes);
  if (d.l2_bytes > 0) l.l2_bytes = static_cast<std::uint64_t>(d.l2_bytes);
  if (d.hbm_bytes > 0) l.global_memory_bytes = static_cast<std::uint64_t>(d.hbm_bytes);
  return l;
}

bool use_simulated_device(const std::string& name) {
  device_limits() = simulated_device_limits(name);
  return install_clock_model(name);
}

}  // namespace simt::timing
