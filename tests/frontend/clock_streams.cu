// The simulated clock as a program sees it: events around a kernel, a 64 MiB
// host-to-device copy, and a copy on one stream overlapping a kernel on another.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}

int main() {
  const int n = 1 << 20;
  const size_t big = 64u << 20;
  float *in, *out, *h, *dbig;
  cudaMallocHost(&h, big);
  for (int i = 0; i < n; ++i) h[i] = 1.0f;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMalloc(&dbig, big);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);

  cudaEventRecord(a);
  cudaMemcpy(dbig, h, big, cudaMemcpyHostToDevice);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float copy_ms = 0;
  cudaEventElapsedTime(&copy_ms, a, b);
  printf("copy_ms %.6f\n", copy_ms);

  cudaMemcpy(in, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaEventRecord(a);
  scale<<<n / 256, 256>>>(out, in, n);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float kernel_ms = 0;
  cudaEventElapsedTime(&kernel_ms, a, b);
  printf("kernel_ms %.6f\n", kernel_ms);

  // Stream 1 copies while stream 2 runs the kernel (different buffers): they overlap.
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  cudaEvent_t c, d;
  cudaEventCreate(&c);
  cudaEventCreate(&d);
  cudaEventRecord(a, s1);
  cudaStreamWaitEvent(s2, a, 0);
  cudaMemcpyAsync(dbig, h, big, cudaMemcpyHostToDevice, s1);
  scale<<<n / 256, 256, 0, s2>>>(in, out, n);
  cudaEventRecord(c, s1);
  cudaEventRecord(d, s2);
  cudaStreamWaitEvent(s1, d, 0);
  cudaEventRecord(b, s1);
  cudaDeviceSynchronize();
  float both_ms = 0, copy2_ms = 0, kernel2_ms = 0;
  cudaEventElapsedTime(&both_ms, a, b);
  cudaEventElapsedTime(&copy2_ms, a, c);
  cudaEventElapsedTime(&kernel2_ms, a, d);
  printf("overlap_ms %.6f copy2_ms %.6f kernel2_ms %.6f\n", both_ms, copy2_ms, kernel2_ms);
  // Unrecorded event: CUDA's error.
  cudaEvent_t never;
  cudaEventCreate(&never);
  float x = 0;
  printf("unrecorded: %s\n", cudaGetErrorName(cudaEventElapsedTime(&x, a, never)));
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
  cudaFreeHost(h);
  return 0;
}
