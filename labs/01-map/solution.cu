// Lab 01 — map: a solution (labs/01-map/README.md).
#include "lab.cuh"

__global__ void square(const float* a, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] * a[i];
}

void launch_square(const float* a, float* out, int n) {
  const unsigned threads = 256;
  square<<<lab::blocks_for(n, threads), threads>>>(a, out, n);
}
