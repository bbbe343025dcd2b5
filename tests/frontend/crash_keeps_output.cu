// A kernel that hands a device pointer to the C library (strlen) stops the program
// with exit 3 and a diagnostic; what the program printed before stays on stdout
// (tests/frontend/test_device_output.cpp).
#include <cstdio>
#include <cstring>
__global__ void k(const char* s, int* n) { *n = int(strlen(s)); }
int main() {
  printf("before the crash\n");
  char* d;
  int* n;
  cudaMalloc(&d, 8);
  cudaMalloc(&n, 4);
  cudaMemcpy(d, "hi", 3, cudaMemcpyHostToDevice);
  k<<<1, 1>>>(d, n);
  cudaDeviceSynchronize();
  printf("after\n");
  return 0;
}
