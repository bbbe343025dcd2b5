// Device clock() and clock64(): a cycle counter on the simulated device, not the host's
// (docs/exec.md, "Device clock"). The value is the calling thread's estimated SASS
// instructions since its block began, one cycle each; at __syncthreads() every thread
// takes the latest arrival's count, at a warp collective every lane of it the latest
// lane's. It grows with the work a thread does between two reads, but it is no
// cycle-accurate GPU clock: no latencies, no waits for memory, no other warps sharing
// the scheduler.
//
// clock64() calls the runtime (sim/exec/device_clock_hooks.cpp). clock() is the C
// library's name, so device and host code call the same function: libsimt_sim.so
// defines it, and it reads this counter in a simulated thread and the process's CPU
// time (the C library's clock()) everywhere else.
#pragma once
#include <ctime>

extern "C" long long __simt_clock64();

inline long long clock64() { return __simt_clock64(); }
