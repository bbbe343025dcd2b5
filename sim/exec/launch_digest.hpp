// Digests of device memory after each launch, for `simt validate`: the simulated
// program and the nvcc-built one (through program/gpu_launch_digest.cpp)
// write the same lines, and the two files are compared launch by launch.
//
//   launch <n> error <cuda error code> kernel <name>
//   alloc <id> <bytes> <FNV-1a 64 of the bytes, hex>      one per live allocation
//
// Allocation ids count cudaMalloc/cudaMallocManaged calls from 1 on both sides.
// With the option validate_dump_dir set, both writers also dump the bytes of allocations
// whose digest changed (sim/exec/launch_dump.hpp).
#pragma once
#include "sim/state/launch_record.hpp"

namespace simt {

// Appends the digest of every live allocation after launch `r` to the file named
// by the option validate_digests, and dumps the changed ones into validate_dump_dir;
// does nothing when both are unset.
void write_launch_digest(const LaunchRecord& r);

}  // namespace simt
