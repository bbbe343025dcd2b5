// A pure kernel launched 5 times on the same buffers (a benchmark loop): the
// launches after the first cannot change memory and are skipped; a memset of a
// buffer the kernel never touches (llm.c's L2 flush) does not prevent it.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}

int main() {
  const int n = 4096;
  float h[n];
  for (int i = 0; i < n; ++i) h[i] = float(i);
  float *in, *out, *flush;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMalloc(&flush, 1 << 20);
  cudaMemcpy(in, h, n * sizeof(float), cudaMemcpyHostToDevice);
  for (int rep = 0; rep < 5; ++rep) {
    cudaMemset(flush, 0, 1 << 20);
    scale<<<n / 256, 256>>>(out, in, n);
  }
  cudaMemcpy(h, out, n * sizeof(float), cudaMemcpyDeviceToHost);
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += h[i];
  printf("out[7] = %.1f sum = %.1f\n", h[7], sum);
  return 0;
}
