// A kernel that hands device memory to a C library function: the library is not
// compiled by simtlab's pass, so its reads of the buffer would be unseen (no
// requests, no bounds check). The simulator stops the launch at the calling line.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void find_zero(const char* text, int n, int* where) {
  const void* hit = memchr(text, 0, n);  // libc reads device memory: line 9
  *where = hit ? int(static_cast<const char*>(hit) - text) : -1;
}

int main() {
  const int n = 64;
  char* text = nullptr;
  int* where = nullptr;
  cudaMalloc(&text, n);
  cudaMalloc(&where, sizeof(int));
  cudaMemset(text, 'a', n);
  cudaMemset(text + 40, 0, 1);
  find_zero<<<1, 1>>>(text, n, where);
  int h = -2;
  cudaError_t e = cudaMemcpy(&h, where, sizeof h, cudaMemcpyDeviceToHost);
  printf("where = %d (%s)\n", h, cudaGetErrorString(e));
  return 0;
}
