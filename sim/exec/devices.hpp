// The simulated GPUs of one program: how many (the gpus option, `simt exec --gpus N`),
// which node each sits in (the nodes option), and the device each host thread is
// using (cudaSetDevice). All of them are of one kind (device_limits()).
#pragma once

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

}  // namespace simt
