// The two workloads `simt bench` times: tiled matmul and vector add. Each is
// compiled twice from the same kernel headers: counted (the simulator as users
// run it) and plain (the same executor, the pass instrumenting nothing).
#pragma once

namespace simt::bench {

struct Workload {
  const char* name;
  void (*counted)();  // launches the kernel once; host setup is excluded by the caller
  void (*plain)();
};

Workload matmul_workload();      // matmul_tiled<16>, 256 x 256 x 256
Workload vector_add_workload();  // vector_add, 2^22 elements

}  // namespace simt::bench
