// Lab 10 — the reduction ladder: a solution (labs/10-reduction-ladder/README.md).
// Sequential addressing down to 64 values, then one warp finishes in registers with
// __shfl_down_sync: 3 barriers after the load instead of 8, and from stride 64 on the
// idle warps do not execute the loop's body at all.
#include "lab.cuh"

// After the call lane 0 holds the sum of the 32 lanes' x.
__device__ float warp_sum(float x) {
  for (int offset = 16; offset > 0; offset /= 2) x += __shfl_down_sync(0xffffffffu, x, offset);
  return x;
}

__global__ void block_sum(const float* in, float* out, int n) {
  __shared__ float s[kThreads];
  const unsigned tid = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();

  // Strides 128 and 64: the low half adds the high half. Lanes of a warp touch
  // consecutive words (no bank conflicts); whole warps fall idle together.
  for (unsigned stride = blockDim.x / 2; stride > 32; stride /= 2) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  // 64 values left: warp 0 adds the two halves and finishes in registers.
  if (tid < 32) {
    const float x = warp_sum(s[tid] + s[tid + 32]);
    if (tid == 0) out[blockIdx.x] = x;
  }
}

void launch_block_sum(const float* in, float* out, int n) {
  block_sum<<<lab::blocks_for(n, kThreads), kThreads>>>(in, out, n);
}
