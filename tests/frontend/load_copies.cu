// A load site's copies (the site records' kSiteCopiesShift, the global_sites' `copies`):
// the most load instructions of one source location a basic block of the optimised
// code holds. A tile copy unrolled four times inside a k loop that branches is four
// copies in one block: its float4 loads are issued together, one round trip for all
// four, which the kernel time model reads (cost/kernel/kernel_terms.cpp, rounds_of).
#include <cstdio>

constexpr int kCopies = 4;

// Each k step copies 4 float4 a thread into shared memory (the loop over copies fully
// unrolled), then a data-dependent branch: the k loop is not branch-free.
__global__ void tile_copy(const float4* a, float* out, int steps) {
  __shared__ float4 tile[kCopies * 32];
  float acc = 0.0f;
  for (int k = 0; k < steps; ++k) {
#pragma unroll
    for (int c = 0; c < kCopies; ++c) tile[c * 32 + threadIdx.x] = a[(k * kCopies + c) * 32 + threadIdx.x];
    __syncthreads();
    const float4 v = tile[(threadIdx.x + 1) % (kCopies * 32)];
    if (v.x > 0.5f) acc += v.y;
    __syncthreads();
  }
  out[threadIdx.x] = acc;
}

// One load a step: one copy.
__global__ void one_load(const float* a, float* out, int steps) {
  float acc = 0.0f;
  for (int k = 0; k < steps; ++k) {
    const float v = a[k * 32 + threadIdx.x];
    if (v > 0.5f) acc += v;
  }
  out[threadIdx.x] = acc;
}

int main() {
  const int steps = 8;
  float4* a;
  float* out;
  cudaMalloc(&a, steps * kCopies * 32 * sizeof(float4));
  cudaMalloc(&out, 32 * sizeof(float));
  cudaMemset(a, 0, steps * kCopies * 32 * sizeof(float4));
  tile_copy<<<1, 32>>>(a, out, steps);
  one_load<<<1, 32>>>(reinterpret_cast<const float*>(a), out, steps);
  float r;
  cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost);
  printf("%g\n", r);
  return 0;
}
