// The other .cu file of main.cpp: the same names as scale.cu's file-static `scratch`
// and helper `adjust`, with other meanings, and a `__device__` function of scale.cu.
#include "common.h"

static float* scratch = nullptr;

extern __device__ float one_more(float x);  // defined in scale.cu (nvcc: -rdc=true)

static __device__ float adjust(float x) { return one_more(x); }

__global__ void sum_kernel(const float* d, int n, float* total) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(total, adjust(d[i]));
}

extern "C" float sum_plus_count_on_device(const float* d, int n) {
  cudaMalloc(&scratch, sizeof(float));
  cudaMemset(scratch, 0, sizeof(float));
  sum_kernel<<<(n + 255) / 256, 256>>>(d, n, scratch);
  float total = 0;
  cudaMemcpy(&total, scratch, sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(scratch);
  return total;
}
