#include <cstdio>
__global__ void lane_ids(unsigned* out) {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));  // line 4
  out[threadIdx.x] = lane;
}
int main() {
  unsigned* d;
  cudaMalloc(&d, 32 * sizeof(unsigned));
  lane_ids<<<1, 32>>>(d);
  printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
