// The workloads `simt bench` times, counted: built like every kernel here (the
// syntax step, clang and simtlab's pass), as `simt run` and `simt exec` run them.
#include <cuda_runtime.h>

#include "kernels/bench_workloads.hpp"

#include <vector>

namespace simt::bench::counted {
#include "kernels/bench_workload_body.inc"
}  // namespace simt::bench::counted

namespace simt::bench {
namespace plain {
void run_matmul();
void run_vector_add();
}  // namespace plain
Workload matmul_workload() { return {"matmul_tiled<16> 256x256x256", counted::run_matmul, plain::run_matmul}; }
Workload vector_add_workload() {
  return {"vector_add 2^22", counted::run_vector_add, plain::run_vector_add};
}
}  // namespace simt::bench
