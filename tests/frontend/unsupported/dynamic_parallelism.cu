#include <cstdio>
__global__ void child(int* out) { out[threadIdx.x] = 1; }
__global__ void parent(int* out) {
  if (threadIdx.x == 0) child<<<1, 32>>>(out);  // line 4
}
int main() {
  int* d;
  cudaMalloc(&d, 32 * sizeof(int));
  parent<<<1, 32>>>(d);
  printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
