// Lab 01 with the right outputs and the wrong index order: thread t of block b takes
// element t * gridDim.x + b. Every element is written once, but the 32 lanes of a warp
// read 32 floats gridDim.x apart: 32 sectors per request instead of 4.
#include "lab.cuh"

__global__ void square(const float* a, float* out, int n) {
  const int i = threadIdx.x * gridDim.x + blockIdx.x;
  if (i < n) out[i] = a[i] * a[i];
}

void launch_square(const float* a, float* out, int n) {
  const unsigned threads = 256;
  square<<<lab::blocks_for(n, threads), threads>>>(a, out, n);
}
