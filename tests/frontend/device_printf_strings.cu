// Device printf of strings: a literal, a string a kernel reads from global memory
// (%s with a device pointer), widths and precisions, and output before and after the
// kernel kept in order (tests/frontend/test_device_output.cpp).
#include <cstdio>

__global__ void k(const char* s, int n) {
  printf("device says %s, [%5.1s] %-4d|%c %05.2f %s\n", s, s, n, 'x', 3.14159, "literal");
}

int main() {
  printf("before\n");
  char* d;
  cudaMalloc(&d, 8);
  cudaMemcpy(d, "hi", 3, cudaMemcpyHostToDevice);
  k<<<1, 1>>>(d, 42);
  cudaDeviceSynchronize();
  printf("after\n");
  cudaFree(d);
  return 0;
}
