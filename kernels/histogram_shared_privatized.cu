// Histogram privatised per block (histogram_common.cuh lists the family): each block
// counts its share of the input into 256 shared-memory words, then adds each word to
// the global bins once. The contended updates are now shared-memory atomics, which an
// SM executes in a few cycles, and the global bins see 256 updates per block instead
// of one per element. Two blocks per SM, each looping over the input (grid stride).
#include "kernels/harness.hpp"
#include "kernels/histogram_common.cuh"
#include <cuda_runtime.h>

#include <algorithm>

__global__ void histogram_shared_privatized(const unsigned* data, int n, unsigned* bins) {
  __shared__ unsigned local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[data[i] % 256], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

namespace {
simt::kernels::Outputs run(const simt::kernels::Params& p) {
  return histogram::run(p, [](const unsigned* data, int n, unsigned* bins, int block) {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    const int blocks = std::min(2 * prop.multiProcessorCount, (n + block - 1) / block);
    histogram_shared_privatized<<<blocks, block>>>(data, n, bins);
  });
}

simt::kernels::Registration reg({"histogram_shared_privatized",
                                 "256-bin histogram, shared-memory bins per block, one global atomicAdd per bin",
                                 histogram::params(), run, histogram::check});
}  // namespace
