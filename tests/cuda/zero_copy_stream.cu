// Zero-copy at a size where the link shows: 64 MiB read from page-locked host memory
// three times, then the same from device memory (tests/cuda/run_zero_copy_gpu.sh).
#include <cstdio>
#include <cuda_runtime.h>
__global__ void scale_into(float* out, const float* in, int n, float a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * in[i];
}
int main() {
  const int n = 1 << 24;
  float *in, *out, *din;
  cudaMallocHost(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMalloc(&din, n * sizeof(float));
  for (int i = 0; i < n; ++i) in[i] = float(i & 1023);
  cudaMemcpy(din, in, n * sizeof(float), cudaMemcpyHostToDevice);
  for (int r = 0; r < 3; ++r) scale_into<<<n / 256, 256>>>(out, in, n, 2.0f);   // zero-copy
  for (int r = 0; r < 3; ++r) scale_into<<<n / 256, 256>>>(out, din, n, 2.0f);  // from HBM
  printf("sync %d\n", int(cudaDeviceSynchronize()));
  return 0;
}
