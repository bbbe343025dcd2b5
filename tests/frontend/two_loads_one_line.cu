// Two global loads on one source line, in a loop (a dot product's a[i] * b[i]):
// two load sites, each a round trip per iteration for the kernel time model's load
// chain. The report's time must be the program's clock (tests/frontend/test_clock.cpp).
#include <cuda_runtime.h>

#include <cstdio>

__global__ void dot_loop(const float* a, const float* b, float* out, int n) {
  float s = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += a[i] * b[i];
  out[threadIdx.x] = s;
}

int main() {
  const int n = 1 << 14, threads = 128;
  float *a = nullptr, *b = nullptr, *out = nullptr;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMalloc(&out, threads * sizeof(float));
  cudaMemset(a, 0, n * sizeof(float));
  cudaMemset(b, 0, n * sizeof(float));
  dot_loop<<<1, threads>>>(a, b, out, n);
  float first = -1.0f;
  cudaMemcpy(&first, out, sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("out[0] = %.1f\n", first);
  cudaFree(a);
  cudaFree(b);
  cudaFree(out);
  return 0;
}
