// The simulated clock's prices (docs/exec.md, 'The simulated clock'): a kernel
// takes the kernel time model's predicted time (cost/kernel/kernel_time.hpp, the same
// number `simt exec` and `simt run` print); a copy between host and device moves
// at the device's host link (catalog "host_link", a PCIe generation) times the
// measured "host_copy_efficiency", after "host_copy_latency_us" (both in the
// device's "kernel_model" where measured; else 1 and the link's latency), or,
// from pageable host memory, the measured "pageable_{h2d,d2h}_gbs"; a
// device-to-device copy reads and writes every byte at the
// achievable DRAM bandwidth, a memset writes them, each after one launch overhead.
#pragma once
#include "sim/clock/device_clock.hpp"

#include <memory>
#include <string>

namespace simt::timing {

// The model for a catalog device (throws std::invalid_argument naming the device
// when it is unknown or cannot be priced: no SM count, clock or bandwidth).
std::unique_ptr<TimeModel> catalog_time_model(const std::string& device);

// Installs it into the simulated runtime's clock. Returns false, with the reason
// on stderr, when the device cannot be priced (then every duration is 0).
bool install_clock_model(const std::string& device);

}  // namespace simt::timing
