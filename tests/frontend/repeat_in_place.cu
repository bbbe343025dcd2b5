// An in-place kernel (x[i] += 1) launched 4 times: each launch reads what the
// one before wrote, so every one runs.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void increment(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}

int main() {
  const int n = 1024;
  float h[n];
  for (int i = 0; i < n; ++i) h[i] = float(i);
  float* x;
  cudaMalloc(&x, n * sizeof(float));
  cudaMemcpy(x, h, n * sizeof(float), cudaMemcpyHostToDevice);
  for (int rep = 0; rep < 4; ++rep) increment<<<n / 128, 128>>>(x, n);
  cudaMemcpy(h, x, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("x[0] = %.1f x[1000] = %.1f\n", h[0], h[1000]);
  return 0;
}
