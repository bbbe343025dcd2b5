// Lab 01 — map: one thread per element. Read labs/01-map/README.md (simt lab show map).
// Check your work: simt lab check map map.cu
#include "lab.cuh"

__global__ void square(const float* a, float* out, int n) {
  // TODO 1: this thread's element: i from blockIdx.x, blockDim.x and threadIdx.x.
  // TODO 2: the last block has threads past the end of the arrays: only i < n may
  //         touch a and out.
  int i = threadIdx.x;
  out[i] = a[i] * a[i];
}

void launch_square(const float* a, float* out, int n) {
  const unsigned threads = 256;
  // TODO 3: enough blocks of `threads` threads to cover all n elements (not just one).
  const unsigned blocks = 1;
  square<<<blocks, threads>>>(a, out, n);
}
