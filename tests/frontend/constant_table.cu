// __constant__ data set by cudaMemcpyToSymbol and read by a kernel: constant-cache
// reads are not global loads (no LDG), so only the store is a request.
#include <cstdio>
#include <cuda_runtime.h>

__constant__ float weights[4];

__global__ void weigh(float* out) { out[threadIdx.x] = weights[threadIdx.x % 4] * 2.0f; }

int main() {
  const float h[4] = {1, 2, 3, 4};
  cudaMemcpyToSymbol(weights, h, sizeof h);
  float* d;
  cudaMalloc(&d, 32 * sizeof(float));
  weigh<<<1, 32>>>(d);
  float r[32];
  cudaMemcpy(r, d, sizeof r, cudaMemcpyDeviceToHost);
  printf("%.1f %.1f\n", r[0], r[7]);
  return 0;
}
