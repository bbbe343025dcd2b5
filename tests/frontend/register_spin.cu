// A kernel that spins without touching device memory: a flag in a register (a
// volatile local, so the compiler keeps the loop) that nothing sets. No access
// reaches the memory watchdog; the instruction watchdog stops the block, naming
// the line of the loop. Run with a small budget: SIMT_OPTIONS=watchdog_insts=1000000.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void spin_on_register(int* out) {
  volatile bool done = false;
  int laps = 0;
  while (!done) ++laps;
  out[threadIdx.x] = laps;
}

// A loop that ends after `laps` iterations: the budget is per thread between
// barriers, so the same budget lets it finish.
__global__ void long_but_finite(int* out, int laps) {
  unsigned x = threadIdx.x;
  for (int i = 0; i < laps; ++i) {
    x = x * 1664525u + 1013904223u;
    if (i % 1000 == 0) __syncthreads();
  }
  out[threadIdx.x] = int(x);
}

int main() {
  int* out;
  cudaMalloc(&out, 32 * sizeof(int));
  long_but_finite<<<1, 32>>>(out, 400000);
  printf("finite: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  spin_on_register<<<1, 32>>>(out);
  printf("spin: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
