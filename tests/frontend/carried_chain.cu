// Loop-carried chains (sim/compiler/pass/carried_chain.cpp): per iteration, the
// longest dependent path from a loop header's value back to itself, at the H200's
// measured latencies (FFMA 4.5 clocks, IEEE division 64), for the lane that ran the
// loop most often, summed over warps.
#include <cstdio>

// One FFMA per iteration on the accumulator: 4.5 clocks an iteration.
__global__ void dot(const float* a, const float* b, float* out, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; ++i) s = fmaf(a[i], b[i], s);
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// Only the induction variable is carried, its step fixed for the loop: no chain.
__global__ void fill(float* out, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = 2.0f * i;
}

// An IEEE division on the carried value: 64 clocks an iteration.
__global__ void divide(const float* a, float* out, int n) {
  float s = 1.0f;
  for (int i = 0; i < n; ++i) s = s / a[i];
  out[threadIdx.x] = s;
}

// Lanes run 0 to 31 iterations: the warp waits for its busiest lane's 31.
__global__ void per_lane(const float* a, float* out) {
  float s = 0.0f;
  for (int i = 0; i < int(threadIdx.x % 32); ++i) s = fmaf(a[i], a[i + 1], s);
  out[threadIdx.x] = s;
}

int main() {
  const int n = 100;
  float *a, *b, *out;
  cudaMalloc(&a, (n + 1) * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMalloc(&out, 256 * sizeof(float));
  float h[n + 1];
  for (int i = 0; i <= n; ++i) h[i] = 1.0f + 0.0078125f * i;
  cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(b, h, n * sizeof(float), cudaMemcpyHostToDevice);
  dot<<<2, 64>>>(a, b, out, n);
  fill<<<1, 64>>>(out, 256);
  divide<<<1, 32>>>(a, out, n);
  per_lane<<<1, 64>>>(a, out);
  float r;
  cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost);
  printf("%g\n", r);
  return 0;
}
