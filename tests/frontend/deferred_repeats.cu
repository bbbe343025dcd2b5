// Repeats that change memory are deferred until something reads what they write
// (sim/shortcuts/deferred_launches.hpp). Each phase checks one way the queue must run, or
// need not:
//   1. a new kernel reads what the queue writes: it is counted ahead, undone, queued;
//      the host's copy then runs everything in order;
//   2. a new kernel independent of the queue runs at once and stays done;
//   3. a kernel that prints what the queue writes: the queue runs first;
//   4. a buffer is freed while repeats on it are queued: its release waits, and a
//      launch on it afterwards runs the queue, then faults as a use after free;
//   5. after the fault (sticky, as on a GPU) every launch is refused.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void bump(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}
__global__ void scale(float* out, const float* in, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = s * in[i];
}
__global__ void show(const float* x) { printf("x[7] on the device: %.1f\n", x[7]); }

int main() {
  const int n = 1024;
  float h[n];
  for (int i = 0; i < n; ++i) h[i] = float(i);
  float *x, *y, *z, *w;
  for (float** p : {&x, &y, &z, &w}) cudaMalloc(p, n * sizeof(float));
  cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(z, h, sizeof h, cudaMemcpyHostToDevice);

  for (int rep = 0; rep < 5; ++rep) bump<<<n / 256, 256>>>(x, n);  // launches 1-5: 2-5 deferred
  scale<<<n / 256, 256>>>(y, x, 2.0f, n);                          // 6: reads x: counted ahead, queued
  scale<<<n / 256, 256>>>(w, z, 3.0f, n);                          // 7: independent: done at once
  cudaMemcpy(h, y, sizeof h, cudaMemcpyDeviceToHost);              // runs 2-6 in order
  printf("phase 1: y[7] = %.1f\n", h[7]);                          // 2 * (7 + 5) = 24
  scale<<<n / 256, 256>>>(y, x, 2.0f, n);                          // 8: a pure repeat of 6: skipped
  cudaMemcpy(h, w, sizeof h, cudaMemcpyDeviceToHost);
  printf("phase 2: w[7] = %.1f\n", h[7]);                          // 21

  for (int rep = 0; rep < 3; ++rep) bump<<<n / 256, 256>>>(x, n);  // 9-11: all three repeat 1, deferred
  show<<<1, 1>>>(x);                                               // 12: prints: the queue runs first
  cudaDeviceSynchronize();

  for (int rep = 0; rep < 4; ++rep) bump<<<n / 256, 256>>>(x, n);  // 13-16: deferred
  cudaFree(x);                                                     // waits for the queue: never needed
  bump<<<n / 256, 256>>>(x, n);                                    // 17: use after free
  cudaError_t e = cudaDeviceSynchronize();
  printf("phase 4: %s\n", cudaGetErrorName(e));

  for (int rep = 0; rep < 4; ++rep) bump<<<n / 256, 256>>>(z, n);  // refused: cudaErrorIllegalAddress
  cudaFree(z);
  return 0;
}
