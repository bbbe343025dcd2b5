#include "sim/exec/device_limits.hpp"

#include <fmt/format.h>

#include <charconv>
#include <stdexcept>
#include <string_view>

namespace simt {

namespace {

// Every field once: the writer and the reader walk the same list.
template <class Visit>
void for_each_field(DeviceLimits& d, Visit visit) {
  visit("cc_major", d.cc_major);
  visit("cc_minor", d.cc_minor);
  visit("sm_count", d.sm_count);
  visit("max_threads_per_block", d.max_threads_per_block);
  visit("max_threads_per_sm", d.max_threads_per_sm);
  visit("registers_per_sm", d.registers_per_sm);
  visit("max_block_dim_x", d.max_block_dim_x);
  visit("max_block_dim_y", d.max_block_dim_y);
  visit("max_block_dim_z", d.max_block_dim_z);
  visit("max_grid_dim_x", d.max_grid_dim_x);
  visit("max_grid_dim_y", d.max_grid_dim_y);
  visit("max_grid_dim_z", d.max_grid_dim_z);
  visit("shared_per_block", d.shared_per_block);
  visit("shared_per_block_optin", d.shared_per_block_optin);
  visit("shared_per_sm", d.shared_per_sm);
  visit("l2_bytes", d.l2_bytes);
  visit("global_memory_bytes", d.global_memory_bytes);
  visit("clock_khz", d.clock_khz);
}

}  // namespace

std::string device_to_env(const DeviceLimits& limits) {
  DeviceLimits d = limits;
  std::string out = "name=" + d.name;
  for_each_field(d, [&](const char* key, auto& v) { out += fmt::format(";{}={}", key, v); });
  return out;
}

DeviceLimits device_from_env(const std::string& text) {
  DeviceLimits d;
  std::string_view rest = text;
  while (!rest.empty()) {
    const std::size_t end = std::min(rest.find(';'), rest.size());
    const std::string_view item = rest.substr(0, end);
    rest.remove_prefix(std::min(end + 1, rest.size()));
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos)
      throw std::invalid_argument(fmt::format("${}: '{}' is not key=value", kDeviceEnvVar, item));
    const std::string_view key = item.substr(0, eq), value = item.substr(eq + 1);
    if (key == "name") {
      d.name = value;
      continue;
    }
    bool known = false;
    for_each_field(d, [&](const char* k, auto& field) {
      if (key != k) return;
      known = true;
      auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), field);
      if (ec != std::errc{} || p != value.data() + value.size())
        throw std::invalid_argument(fmt::format("${}: {}={} is not a number", kDeviceEnvVar, key, value));
    });
    if (!known) throw std::invalid_argument(fmt::format("${}: unknown field '{}'", kDeviceEnvVar, key));
  }
  return d;
}

}  // namespace simt
