// A file without kernels that holds device memory: its host code reading a
// cudaMalloc pointer stops at the line too (every module built with simtlab's
// headers guards the device view, kernels or not).
#include <cstdio>
#include <cuda_runtime.h>

int main() {
  int* d = nullptr;
  cudaMalloc(&d, 64 * sizeof(int));
  cudaMemset(d, 0, 64 * sizeof(int));
  d[3] = 7;  // line 11: a host write into device memory
  int h = 0;
  cudaMemcpy(&h, d + 3, sizeof h, cudaMemcpyDeviceToHost);
  printf("d[3] = %d\n", h);
  return 0;
}
