// A program whose device memory is too large for the race checks' shadow (16 bytes a
// 4-byte word) on this machine: it allocates 60 GiB (the simulator maps device memory
// lazily, so nothing of it is touched), then launches a kernel in which two blocks
// write the same word. Before that launch the race checks are turned off with a
// warning, and the program goes on; with SIMT_OPTIONS=races=always they stay on and the race is
// reported (sim/shortcuts/race_shadow_budget.hpp).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void both_blocks_write(int* x) {
  if (threadIdx.x == 0) x[0] = blockIdx.x;
}

int main() {
  void* huge = nullptr;
  if (cudaMalloc(&huge, 60ull << 30) != cudaSuccess) {
    std::printf("no 60 GiB allocation\n");
    return 1;
  }
  int* x;
  cudaMalloc(&x, sizeof(int));
  both_blocks_write<<<2, 32>>>(x);
  std::printf("launch: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
