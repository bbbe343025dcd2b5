#include <cstdio>
__global__ void __cluster_dims__(2, 1, 1) pair(int* out) { out[blockIdx.x] = 3; }  // line 2
int main() {
  int* d;
  cudaMalloc(&d, 2 * sizeof(int));
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(2);
  cfg.blockDim = dim3(32);
  cudaLaunchKernelEx(&cfg, pair, d);
  printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
