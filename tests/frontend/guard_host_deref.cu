// Host code that dereferences a cudaMalloc pointer. On a GPU this is a segmentation
// fault (device memory is not mapped in the host's address space); here the
// simulator names the line and exits with code 3, instead of letting the host
// read the simulated device memory unseen.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 1.0f;
}

int main() {
  const int n = 256;
  float* d = nullptr;
  cudaMalloc(&d, n * sizeof(float));
  fill<<<1, n>>>(d, n);
  cudaDeviceSynchronize();
  float first = d[0];  // host code reading device memory: line 19
  printf("d[0] = %.1f\n", first);
  return 0;
}
