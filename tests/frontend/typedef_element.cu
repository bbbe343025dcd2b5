// A typedef'd element type (llm.c's floatX): every load, store and FADD of the
// kernel must be counted, exactly as for plain float.
#include <cstdio>
#include <cuda_runtime.h>

typedef float floatX;

__global__ void add(const floatX* a, const floatX* b, floatX* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  const int n = 4096;
  floatX *a, *b, *c;
  cudaMalloc(&a, n * sizeof(floatX));
  cudaMalloc(&b, n * sizeof(floatX));
  cudaMalloc(&c, n * sizeof(floatX));
  floatX h[n];
  for (int i = 0; i < n; ++i) h[i] = float(i);
  cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(b, h, sizeof h, cudaMemcpyHostToDevice);
  add<<<n / 256, 256>>>(a, b, c, n);
  cudaMemcpy(h, c, sizeof h, cudaMemcpyDeviceToHost);
  printf("c[4095] = %.1f\n", h[4095]);
  return 0;
}
