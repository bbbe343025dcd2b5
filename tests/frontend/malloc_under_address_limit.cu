// Run under `ulimit -v` (tests/cli/test_exec_outputs_cli.cpp): cudaMemGetInfo reports
// what this process can allocate, an allocation past it is refused with a word on
// stderr naming the limit, and one within it succeeds.
#include <cstdio>

int main() {
  size_t free_bytes = 0, total = 0;
  cudaMemGetInfo(&free_bytes, &total);
  std::printf("free below total: %d\n", free_bytes < total);
  void* big = nullptr;
  std::printf("past free: %s\n", cudaGetErrorName(cudaMalloc(&big, free_bytes + (256u << 20))));
  void* half = nullptr;
  std::printf("half of free: %s\n", cudaGetErrorName(cudaMalloc(&half, free_bytes / 2)));
  return 0;
}
