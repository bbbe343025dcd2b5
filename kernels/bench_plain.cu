// The same workloads uninstrumented: kernels/CMakeLists.txt compiles this file with
// SIMT_OPTIONS=pass_uninstrumented=1, so the pass keeps the kernels' barriers and
// launches (they run on the same executor) and counts and checks nothing.
#include <cuda_runtime.h>

#include "kernels/bench_workloads.hpp"

#include <vector>

namespace simt::bench::plain_impl {
#include "kernels/bench_workload_body.inc"
}  // namespace simt::bench::plain_impl

namespace simt::bench::plain {
void run_matmul() { plain_impl::run_matmul(); }
void run_vector_add() { plain_impl::run_vector_add(); }
}  // namespace simt::bench::plain
