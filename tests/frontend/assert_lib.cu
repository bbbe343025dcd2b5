// A device assert in a library loaded by Python's ctypes: the launch fails with
// cudaErrorAssert (710) and the interpreter lives on.
#include <cassert>
#include <cuda_runtime.h>

__global__ void check_positive(const float* x) { assert(x[threadIdx.x] > 0.0f); }

extern "C" int run_assert() {
  float* d;
  cudaMalloc(&d, 32 * sizeof(float));
  cudaMemset(d, 0, 32 * sizeof(float));
  check_positive<<<1, 32>>>(d);
  return int(cudaDeviceSynchronize());
}
