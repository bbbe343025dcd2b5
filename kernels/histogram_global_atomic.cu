// Histogram with one global atomicAdd per element (histogram_common.cuh lists the
// family). Simple and correct, and slow: the grid's millions of updates all land on
// 256 words, and each word's updates execute one after another at the L2 slice that
// owns it. The result of the atomicAdd is unused, so the GPU runs it as a RED.
#include "kernels/harness.hpp"
#include "kernels/histogram_common.cuh"
#include <cuda_runtime.h>

__global__ void histogram_global_atomic(const unsigned* data, int n, unsigned* bins) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[data[i] % 256], 1u);
}

namespace {
simt::kernels::Outputs run(const simt::kernels::Params& p) {
  return histogram::run(p, [](const unsigned* data, int n, unsigned* bins, int block) {
    histogram_global_atomic<<<(n + block - 1) / block, block>>>(data, n, bins);
  });
}

simt::kernels::Registration reg({"histogram_global_atomic",
                                 "256-bin histogram, one global atomicAdd per element (contended bins)",
                                 histogram::params(), run, histogram::check});
}  // namespace
