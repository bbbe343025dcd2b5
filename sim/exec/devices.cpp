#include "sim/exec/devices.hpp"

#include "sim/options/runtime_options.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

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

namespace {
// device x device flags, made at the first call (the device count is fixed by then).
std::atomic<bool>* peer_table() {
  static std::once_flag once;
  static std::unique_ptr<std::atomic<bool>[]> table;
  std::call_once(once, [] {
    const auto n = static_cast<std::size_t>(device_count());
    table = std::make_unique<std::atomic<bool>[]>(n * n);
  });
  return table.get();
}
}  // namespace

bool peer_access_enabled(int device, int peer) {
  if (!valid_device(device) || !valid_device(peer)) return false;
  return peer_table()[std::size_t(device) * std::size_t(device_count()) + std::size_t(peer)].load(
      std::memory_order_relaxed);
}

bool set_peer_access(int device, int peer, bool enabled) {
  if (!valid_device(device) || !valid_device(peer)) return false;
  return peer_table()[std::size_t(device) * std::size_t(device_count()) + std::size_t(peer)].exchange(enabled) !=
         enabled;
}

}  // namespace simt

namespace simt {

namespace {
// device x device byte counters, made at the first peer access of a kernel.
std::atomic<std::uint64_t>* peer_bytes_table(bool make) {
  static std::once_flag once;
  static std::atomic<std::atomic<std::uint64_t>*> table{nullptr};
  if (make)
    std::call_once(once, [] {
      const auto n = static_cast<std::size_t>(device_count());
      table.store(new std::atomic<std::uint64_t>[n * n]{}, std::memory_order_release);  // kept to the end
    });
  return table.load(std::memory_order_acquire);
}
}  // namespace

void add_kernel_peer_bytes(int from_device, int to_device, unsigned bytes) {
  if (!valid_device(from_device) || !valid_device(to_device) || from_device == to_device) return;
  const auto n = static_cast<std::size_t>(device_count());
  peer_bytes_table(true)[std::size_t(from_device) * n + std::size_t(to_device)].fetch_add(bytes,
                                                                                        std::memory_order_relaxed);
}

std::map<std::pair<int, int>, std::uint64_t> kernel_peer_bytes() {
  std::map<std::pair<int, int>, std::uint64_t> out;
  const std::atomic<std::uint64_t>* table = peer_bytes_table(false);
  if (!table) return out;
  const int n = device_count();
  for (int from = 0; from < n; ++from)
    for (int to = 0; to < n; ++to)
      if (const std::uint64_t b = table[std::size_t(from) * std::size_t(n) + std::size_t(to)].load()) out[{from, to}] = b;
  return out;
}

}  // namespace simt
