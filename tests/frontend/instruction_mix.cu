// The instruction estimate (docs/counters.md, "Instructions") on kernels whose
// SASS is short and known: an integer loop, a division loop and a divergent
// branch. tests/frontend/test_frontend.cpp checks the counts against the H200's
// (micro_int_issue and micro_int_div of tests/cuda/time_micro.cuh, ncu
// smsp__inst_executed: 4.6 and 21 warp instructions per iteration).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void int_issue(unsigned* out, int reps) {
  unsigned a = threadIdx.x, b = blockIdx.x, c = a ^ 0x9e3779b9u, d = b + 7u;
  for (int r = 0; r < reps; ++r) {
    a = a * 1664525u + 1013904223u;
    b ^= b << 13;
    c = (c >> 3) + (c & 0xffu);
    d = d * 22695477u + 1u;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = a ^ b ^ c ^ d;
}

__global__ void int_div(int* out, int divisor, int reps) {
  int x = blockIdx.x * blockDim.x + threadIdx.x + 1000, acc = 0;
  for (int r = 0; r < reps; ++r) {
    acc += x % divisor;
    x = x / divisor + r + 1000;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc + x;
}

// Half of each warp runs a long loop: warp-level instructions follow the busiest
// lane, thread-level ones the lanes that ran.
__global__ void divergent(int* out, int reps) {
  int x = threadIdx.x;
  if (threadIdx.x % 2 == 0)
    for (int r = 0; r < reps; ++r) x = x * 3 + r;
  out[threadIdx.x] = x;
}

int main() {
  int* out;
  cudaMalloc(&out, 1024 * sizeof(int));
  for (int reps : {256, 1024}) int_issue<<<4, 256>>>(reinterpret_cast<unsigned*>(out), reps);
  for (int reps : {64, 256}) int_div<<<4, 256>>>(out, 7, reps);
  divergent<<<1, 64>>>(out, 1000);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
