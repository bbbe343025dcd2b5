// cudaMalloc of more than any device has (SIZE_MAX, 4 EiB) fails at once with
// cudaErrorMemoryAllocation, and the device still allocates afterwards
// (tests/frontend/test_limits.cpp).
#include <cstdio>
#include <cstdint>
int main() {
  void* p = nullptr;
  cudaError_t e = cudaMalloc(&p, SIZE_MAX);
  printf("SIZE_MAX: %s %p\n", cudaGetErrorString(e), p);
  e = cudaMalloc(&p, size_t(1) << 62);
  printf("4 EiB: %s\n", cudaGetErrorString(e));
  e = cudaMalloc(&p, 1024);
  printf("1 KiB after: %s\n", cudaGetErrorString(e));
  return 0;
}
