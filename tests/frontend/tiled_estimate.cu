// The instruction estimate of the course's tiled matmul (kernels/matmul_tiled.cuh),
// 256^3 with 16x16 tiles. Its inner loop of 16 shared-memory FMAs is fully unrolled
// by nvcc and by clang; the FP counts the pass adds must not keep it rolled (when
// they did, the estimate was 2.3x the H200's). test_frontend.cpp compares with ncu.
#include <cstdio>
#include <cuda_runtime.h>

#include "kernels/matmul_tiled.cuh"

int main() {
  constexpr int n = 256;
  float *a, *b, *c;
  cudaMalloc(&a, n * n * 4);
  cudaMalloc(&b, n * n * 4);
  cudaMalloc(&c, n * n * 4);
  cudaMemset(a, 0, n * n * 4);
  cudaMemset(b, 0, n * n * 4);
  matmul_tiled<16><<<dim3(n / 16, n / 16), dim3(16, 16)>>>(a, b, c, n, n, n);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
