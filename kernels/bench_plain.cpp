// The bench kernels with instrumentation compiled out (sim/cuda/scalar.hpp).
#define SIMT_PLAIN_SCALARS
#include "kernels/bench_workloads.hpp"
#include "sim/cuda/dialect.cuh"

#include <vector>

namespace simt::bench::plain_impl {
#include "kernels/bench_workload_body.inc"
}  // namespace simt::bench::plain_impl

namespace simt::bench::plain {
void run_matmul() { plain_impl::run_matmul(); }
void run_vector_add() { plain_impl::run_vector_add(); }
}  // namespace simt::bench::plain
