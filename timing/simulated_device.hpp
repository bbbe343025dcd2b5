// A device of the cost catalog as the simulator enforces it: the catalog is read
// where the device is named (the device option, `simt run --device`), in the
// process that simulates it; the simulator itself knows nothing of the catalog.
#pragma once
#include "sim/exec/device_limits.hpp"

#include <string>

namespace simt::timing {

// The limits of catalog device `name` (std::invalid_argument, with the names it
// could have meant, when the catalog has none of that name).
DeviceLimits simulated_device_limits(const std::string& name);

// Makes `name` this process's simulated device: its limits, and its prices on the
// simulated clock (clock_model.hpp). False, with the reason on stderr, when it
// cannot be priced.
bool use_simulated_device(const std::string& name);

}  // namespace simt::timing
