#include "sim/clock/link_traffic.hpp"

#include "sim/exec/devices.hpp"

#include <mutex>

namespace simt {

namespace {
std::mutex g_mutex;
std::map<std::pair<int, int>, double>& traffic() {
  static std::map<std::pair<int, int>, double> t;
  return t;
}
}  // namespace

void add_link_bytes(int from_device, int to_device, double bytes) {
  if (from_device < 0 || to_device < 0 || from_device == to_device || bytes <= 0) return;
  std::lock_guard lock(g_mutex);
  traffic()[{from_device, to_device}] += bytes;
}

std::map<std::pair<int, int>, double> link_bytes() {
  std::map<std::pair<int, int>, double> out;
  {
    std::lock_guard lock(g_mutex);
    out = traffic();
  }
  for (const auto& [pair, bytes] : kernel_peer_bytes()) out[pair] += double(bytes);  // kernels' peer accesses
  return out;
}

}  // namespace simt
