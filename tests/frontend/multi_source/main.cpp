// A program of three sources, as NVIDIA's histogram and reduction samples are: host
// C++ here (it calls the runtime and the launchers of the two .cu files), a kernel and
// its launcher in each .cu. `simt exec main.cpp scale.cu sum.cu` builds all three.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "common.h"

int main() {
  const int n = 1000;
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i) h[i] = float(i);
  float* d = nullptr;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  scale_on_device(d, n);
  const float sum = sum_plus_count_on_device(d, n);  // sum of 2i + 1 = n^2
  cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d);
  std::printf("h[999] = %.1f, sum = %.1f\n", h[999], sum);
  return sum == float(n) * float(n) ? 0 : 1;
}
