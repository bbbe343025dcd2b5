#include "kernels/bench_workloads.hpp"
#include "sim/cuda/dialect.cuh"

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
