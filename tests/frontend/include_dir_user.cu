// Built with -I tests/frontend/include_dir -D FACTOR=3: prints y[5] = 15.
#include <cstdio>
#include <scale.h>

__global__ void apply(float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = scale(float(i));
}

int main() {
  float* y;
  cudaMalloc(&y, 64 * sizeof(float));
  apply<<<2, 32>>>(y, 64);
  float host[64];
  cudaMemcpy(host, y, sizeof host, cudaMemcpyDeviceToHost);
  printf("y[5] = %g\n", host[5]);
  return 0;
}
