// A kernel that reads device memory in inline assembly: the compiler cannot see the
// access, so neither can the pass. (x86-64 assembly: a simulator-only file; nvcc
// takes PTX here.) The simulator stops at the asm's line instead of leaving it uncounted.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void asm_load(const int* in, int* out) {
  int v = 0;
#if defined(__x86_64__)
  asm volatile("movl (%1), %0" : "=r"(v) : "r"(in + threadIdx.x) : "memory");  // line 10
#else
  v = in[threadIdx.x];
#endif
  out[threadIdx.x] = v;
}

int main() {
  int *in = nullptr, *out = nullptr;
  cudaMalloc(&in, 32 * sizeof(int));
  cudaMalloc(&out, 32 * sizeof(int));
  cudaMemset(in, 0, 32 * sizeof(int));
  asm_load<<<1, 32>>>(in, out);
  int h = -1;
  cudaError_t e = cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("out[0] = %d (%s)\n", h, cudaGetErrorString(e));
  return 0;
}
