// A kernel that spins on a global flag nobody sets: the watchdog stops it with a
// diagnostic naming the line it spins on, in bounded memory and time.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void wait_for_flag(volatile int* flag, int* out) {
  while (*flag == 0) {
  }
  out[threadIdx.x] = 1;
}

int main() {
  int *flag, *out;
  cudaMalloc(&flag, sizeof(int));
  cudaMalloc(&out, 32 * sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  wait_for_flag<<<1, 32>>>(flag, out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(e));
  return 0;
}
