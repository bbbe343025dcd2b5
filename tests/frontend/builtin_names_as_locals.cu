// A host function may name its launch shape gridDim and blockDim (llm.c does):
// the built-in variables are variables, so a local hides them, as under nvcc.
#include <cstdio>
__global__ void fill(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dim3 b = blockDim;
  if (i < n) out[i] = int(gridDim.x * 1000 + b.x);
}
int main() {
  int n = 100, *d;
  cudaMalloc(&d, n * sizeof(int));
  dim3 blockDim(32);
  dim3 gridDim((n + blockDim.x - 1) / blockDim.x);
  fill<<<gridDim, blockDim>>>(d, n);
  int h[100];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d\n", h[0], h[99]);
  return h[99] == 4032 ? 0 : 1;
}
