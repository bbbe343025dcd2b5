// One of main.cpp's two .cu files. Its file-static `scratch` and `__device__` helper
// `adjust` have the same names as sum.cu's: separate objects, as under nvcc.
#include "common.h"

static float* scratch = nullptr;

static __device__ float adjust(float x) { return 2.0f * x; }

// Called from sum.cu's kernel: relocatable device code (nvcc -rdc=true).
__device__ float one_more(float x) { return x + 1.0f; }

__global__ void scale_kernel(float* d, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = adjust(d[i]);
}

void scale_on_device(float* d, int n) {
  cudaMalloc(&scratch, sizeof(float));  // unused: only its name matters
  scale_kernel<<<(n + 255) / 256, 256>>>(d, n);
  cudaFree(scratch);
}
