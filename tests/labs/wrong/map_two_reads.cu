// Lab 01 with the right outputs and a second load of a[i]: through a volatile pointer
// clang must load twice, so each thread reads `a` two times.
#include "lab.cuh"

__global__ void square(const float* a, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const volatile float* va = a;
  if (i < n) out[i] = va[i] * va[i];
}

void launch_square(const float* a, float* out, int n) {
  const unsigned threads = 256;
  square<<<lab::blocks_for(n, threads), threads>>>(a, out, n);
}
