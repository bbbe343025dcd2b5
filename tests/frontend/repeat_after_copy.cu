// A pure kernel, then a host copy into its input, then the same launch: the copy
// changes what it reads, so it runs again (and sees the new input). A kernel
// that prints is never skipped either.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}

__global__ void hello(const float* in) {
  if (threadIdx.x == 0) printf("device says %.1f\n", in[1]);
}

int main() {
  const int n = 256;
  float h[n];
  for (int i = 0; i < n; ++i) h[i] = float(i);
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(in, h, n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<1, n>>>(out, in, n);
  for (int i = 0; i < n; ++i) h[i] = 10.0f * i;
  cudaMemcpy(in, h, n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<1, n>>>(out, in, n);
  cudaMemcpy(h, out, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("out[3] = %.1f\n", h[3]);
  hello<<<1, 32>>>(in);
  hello<<<1, 32>>>(in);
  cudaDeviceSynchronize();
  return 0;
}
