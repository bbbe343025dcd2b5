// The simulated GPUs of one program: how many (the gpus option, `simt exec --gpus N`),
// which node each sits in (the nodes option), and the device each host thread is
// using (cudaSetDevice). All of them are of one kind (device_limits()).
#pragma once
#include <cstdint>
#include <map>
#include <utility>

namespace simt {

// At most this many simulated GPUs in one program.
inline constexpr int kMaxDevices = 1024;

int device_count();
int node_count();
int node_of(int device);  // GPUs are split evenly over nodes, in order
bool valid_device(int device);

// The calling host thread's current device (0 until it calls cudaSetDevice), as in CUDA.
int current_device();
void set_current_device(int device);

// Peer access (cudaDeviceEnablePeerAccess from `device` to `peer`): whether kernels on
// `device` may touch `peer`'s memory. Read lock-free by kernels' accesses.
bool peer_access_enabled(int device, int peer);
// false when the state was already as asked (CUDA's AlreadyEnabled / NotEnabled).
bool set_peer_access(int device, int peer, bool enabled);

// Bytes kernels moved between GPUs by touching a peer's memory (lock-free: workers
// add them access by access); sim/clock/link_traffic.hpp reports them with the rest.
void add_kernel_peer_bytes(int from_device, int to_device, unsigned bytes);
std::map<std::pair<int, int>, std::uint64_t> kernel_peer_bytes();  // (from, to) -> bytes, pairs that carried any

}  // namespace simt
