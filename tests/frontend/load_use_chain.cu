// Chains after a loop's loads (sim/compiler/pass/carried_chain.cpp,
// load_use_chain_tenths): in a loop whose global loads are not issued ahead — here a
// store the next load may read keeps each iteration's load behind the last — the
// longest path of dependent operations from a loaded value to the end of the
// iteration, at the H200's latencies (FMUL/FADD 4.5 clocks, a shuffle 30.3), per
// iteration of each warp's busiest lane, summed over warps.
#include <cstdio>

// Load, scale, store: one FFMA after the load (x * 0.5f + 0.25f, contracted as nvcc
// does by default): 4.5 clocks an iteration.
__global__ void scale_each(const float* x, float* y, int n) {
  const int t = threadIdx.x, w = blockDim.x;
  for (int i = 0; i < n; ++i) y[i * w + t] = x[i * w + t] * 0.5f + 0.25f;
}

// A warp sum of each loaded row by five shuffles, stored: 5 x (30.3 + 4.5) clocks.
__global__ void row_sums(const float* x, float* y, int n) {
  const int lane = threadIdx.x % 32;
  for (int i = 0; i < n; ++i) {
    float s = x[i * 32 + lane];
    for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffffu, s, o);
    if (lane == 0) y[i] = s;
  }
}

// Nothing stored in the loop: nvcc issues several iterations' loads at once, so no
// chain waits after them (its accumulator is the loop-carried chain's).
__global__ void sum_only(const float* x, float* y, int n) {
  const int lane = threadIdx.x % 32;
  float s = 0.0f;
  for (int i = 0; i < n; ++i) s += x[i * 32 + lane];
  y[lane] = s;
}

int main() {
  const int n = 100;
  float *x, *y;
  cudaMalloc(&x, n * 64 * sizeof(float));
  cudaMalloc(&y, n * 64 * sizeof(float));
  cudaMemset(x, 0, n * 64 * sizeof(float));
  scale_each<<<1, 64>>>(x, y, n);  // 2 warps
  row_sums<<<1, 32>>>(x, y, n);
  sum_only<<<1, 32>>>(x, y, n);
  float r;
  cudaMemcpy(&r, y, sizeof r, cudaMemcpyDeviceToHost);
  printf("%g\n", r);
  return 0;
}
