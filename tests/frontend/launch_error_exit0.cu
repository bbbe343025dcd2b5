// A kernel that writes one element past its allocation; main ignores every error
// and returns 0. simt exec must not report success.
#include <cstdio>

__global__ void off_by_one(float* y) { y[threadIdx.x + 1] = 1.0f; }

int main() {
  float* y;
  cudaMalloc(&y, 32 * sizeof(float));
  off_by_one<<<1, 32>>>(y);
  cudaDeviceSynchronize();
  printf("main returns 0\n");
  return 0;
}
