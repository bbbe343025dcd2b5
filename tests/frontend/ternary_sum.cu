// The sum of two ?: expressions is one FADD per thread (issue 9).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void pair_sum(const float* a, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = i + n / 2;
  out[i] = (i < n ? a[i] : 0.0f) + (j < n ? a[j] : 0.0f);
}

int main() {
  const int n = 512;
  float h[n];
  for (int i = 0; i < n; ++i) h[i] = 1.0f;
  float *a, *o;
  cudaMalloc(&a, sizeof h);
  cudaMalloc(&o, sizeof h);
  cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
  pair_sum<<<2, 256>>>(a, o, n);
  cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
  printf("%.1f %.1f\n", h[0], h[300]);
  return 0;
}
