// A PTX path the preprocessor leaves out: the file builds and runs.
#include <cstdio>
__global__ void lane_ids(unsigned* out) {
#if defined(__CUDA_ARCH__) && !defined(SIMT_CLANG_FRONTEND)
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  out[threadIdx.x] = lane;
#else
  out[threadIdx.x] = threadIdx.x % 32;
#endif
}
int main() {
  unsigned* d;
  cudaMalloc(&d, 64 * sizeof(unsigned));
  lane_ids<<<1, 64>>>(d);
  unsigned h[64];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%u %u\n", h[31], h[33]);
  return 0;
}
