#include "sim/exec/devices.hpp"

#include "sim/options/runtime_options.hpp"

#include <algorithm>
#include <cstdint>

namespace simt {

namespace {
thread_local int t_current_device = 0;
}

int device_count() {
  return static_cast<int>(std::min<std::uint64_t>(runtime_options().gpus, kMaxDevices));
}

// A count of nodes that does not divide the GPUs was refused where it was given
// (`simt exec`); here it falls back to one node rather than split unevenly.
int node_count() {
  const auto nodes = static_cast<int>(std::min<std::uint64_t>(runtime_options().nodes, kMaxDevices));
  return device_count() % nodes == 0 ? nodes : 1;
}

int node_of(int device) { return device / (device_count() / node_count()); }

bool valid_device(int device) { return device >= 0 && device < device_count(); }

int current_device() { return t_current_device; }
void set_current_device(int device) { t_current_device = device; }

}  // namespace simt
