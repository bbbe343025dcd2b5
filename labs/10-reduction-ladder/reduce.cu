// Lab 10 — the reduction ladder: one block sums 256 floats. Read
// labs/10-reduction-ladder/README.md (simt lab show reduction-ladder).
// Check your work: simt lab check reduction-ladder reduce.cu
//
// This file is the first rung, and its sums are right: "interleaved addressing". At
// step s, thread tid adds s[tid + s] into s[tid] if tid is a multiple of 2s. Half the
// threads drop out at every step, but they drop out of EVERY warp: all 8 warps of the
// block keep executing (mostly idle) until the end, and every step needs a barrier.
#include "lab.cuh"

__global__ void block_sum(const float* in, float* out, int n) {
  __shared__ float s[kThreads];
  const unsigned tid = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();

  // TODO 1 (sequential addressing): let the LOW threads do the work instead. Start
  //         with stride = blockDim.x / 2 and halve it: threads tid < stride add
  //         s[tid + stride] into s[tid]. Whole warps then go idle together (from
  //         stride 16 down, only warp 0 works), and the threads of a warp read
  //         consecutive words.
  for (unsigned step = 1; step < blockDim.x; step *= 2) {
    if (tid % (2 * step) == 0) s[tid] += s[tid + step];
    __syncthreads();
  }
  // TODO 2 (warp-shuffle finish): once 64 values are left, one warp is enough. Let
  //         warp 0 take s[tid] + s[tid + 32] into a register and finish with five
  //         __shfl_down_sync steps (offsets 16, 8, 4, 2, 1): no shared memory, no
  //         barrier. Lane 0 then holds the block's sum.
  if (tid == 0) out[blockIdx.x] = s[0];
}

void launch_block_sum(const float* in, float* out, int n) {
  block_sum<<<lab::blocks_for(n, kThreads), kThreads>>>(in, out, n);
}
