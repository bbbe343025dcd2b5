// Vector addition: the "hello world" of GPU kernels. One thread per element;
// consecutive threads touch consecutive floats, so every warp's load is 4
// fully-used 32-byte sectors (100% sector efficiency).
#pragma once
#include <cuda_runtime.h>

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
