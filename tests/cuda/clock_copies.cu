// Copies and memsets timed with CUDA events, for the simulated clock's copy model
// (docs/exec.md, 'The simulated clock'): run it under `simt exec` and on a GPU
// (tests/cuda/run_clock_gpu.sh) and compare. Plain CUDA; prints "name ms".
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

namespace {

cudaEvent_t a, b;

// Median-free and simple: the mean of `reps` timed calls after one warm-up.
template <class F>
float time_ms(F f, int reps = 5) {
  f();
  cudaDeviceSynchronize();
  float total = 0;
  for (int r = 0; r < reps; ++r) {
    cudaEventRecord(a);
    f();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    total += ms;
  }
  return total / reps;
}

}  // namespace

int main() {
  const size_t small = 4u << 10, big = 64u << 20;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  char *d1, *d2, *pinned;
  cudaMalloc(&d1, big);
  cudaMalloc(&d2, big);
  cudaMallocHost(&pinned, big);
  char* pageable = static_cast<char*>(malloc(big));
  for (size_t i = 0; i < big; ++i) pageable[i] = pinned[i] = char(i);
  for (size_t bytes : {small, big}) {
    printf("h2d_pinned_%zu %.4f\n", bytes, time_ms([&] { cudaMemcpy(d1, pinned, bytes, cudaMemcpyHostToDevice); }));
    printf("d2h_pinned_%zu %.4f\n", bytes, time_ms([&] { cudaMemcpy(pinned, d1, bytes, cudaMemcpyDeviceToHost); }));
    printf("h2d_pageable_%zu %.4f\n", bytes, time_ms([&] { cudaMemcpy(d1, pageable, bytes, cudaMemcpyHostToDevice); }));
    printf("d2h_pageable_%zu %.4f\n", bytes, time_ms([&] { cudaMemcpy(pageable, d1, bytes, cudaMemcpyDeviceToHost); }));
    printf("d2d_%zu %.4f\n", bytes, time_ms([&] { cudaMemcpy(d2, d1, bytes, cudaMemcpyDeviceToDevice); }));
    printf("memset_%zu %.4f\n", bytes, time_ms([&] { cudaMemset(d1, 0, bytes); }));
  }
  free(pageable);
  cudaFreeHost(pinned);
  cudaFree(d1);
  cudaFree(d2);
  return 0;
}
