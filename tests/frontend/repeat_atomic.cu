// A kernel that accumulates with atomicAdd, launched 3 times: never skipped.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void total(float* sum, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(sum, in[i]);
}

int main() {
  const int n = 512;
  float h[n];
  for (int i = 0; i < n; ++i) h[i] = 1.0f;
  float *in, *sum;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&sum, sizeof(float));
  cudaMemcpy(in, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(sum, 0, sizeof(float));
  for (int rep = 0; rep < 3; ++rep) total<<<n / 128, 128>>>(sum, in, n);
  float s = 0;
  cudaMemcpy(&s, sum, sizeof(float), cudaMemcpyDeviceToHost);
  printf("sum = %.1f\n", s);
  return 0;
}
