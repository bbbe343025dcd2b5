// What CUDA answers to launches the device cannot run: run with nvcc on a GPU, and
// with `simt exec` (same output expected). CUDA 13 on the H200 printed "launch 1
// cudaErrorInvalidValue | invalid argument ; sync 0" for every line
// (docs/validation/h200-frontend.md).
#include <cstdio>

__global__ void k(float* y) {
  if (y) y[threadIdx.x % 32] = 1.0f;
}

void show(const char* what) {
  cudaError_t e = cudaGetLastError();
  cudaError_t s = cudaDeviceSynchronize();
  printf("%-34s launch %d %s | %s ; sync %d\n", what, int(e), cudaGetErrorName(e), cudaGetErrorString(e), int(s));
}

int main() {
  float* y;
  cudaMalloc(&y, 8192);
  k<<<1, 2048>>>(y); show("block 2048");
  k<<<1, 1025>>>(y); show("block 1025");
  k<<<1, dim3(1, 1, 65)>>>(y); show("block z 65");
  k<<<1, 1024, 1 << 20>>>(y); show("dyn shared 1 MiB");
  k<<<1, 32, 49 * 1024>>>(y); show("dyn shared 49 KiB (no opt-in)");
  k<<<dim3(1, 70000), 32>>>(y); show("grid y 70000");
  k<<<dim3(1, 1, 70000), 32>>>(y); show("grid z 70000");
  k<<<0, 32>>>(y); show("grid 0");
  k<<<1, 0>>>(y); show("block 0");
  k<<<dim3(1u << 31), 32>>>(nullptr); show("grid x 2^31");
  return 0;
}
