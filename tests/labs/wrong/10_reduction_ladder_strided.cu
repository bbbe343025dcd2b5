// Lab 10 with interleaved addressing made non-divergent the classic wrong way:
// thread tid works on word 2 * step * tid. The low threads work, but the lanes of a
// warp read words 2 * step apart: two lanes share a bank at step 1, sixteen at step 16.
// Bank conflicts, from 2-way to 16-way.
#include "lab.cuh"

__global__ void block_sum(const float* in, float* out, int n) {
  __shared__ float s[kThreads];
  const unsigned tid = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();

  for (unsigned step = 1; step < blockDim.x; step *= 2) {
    const unsigned index = 2 * step * tid;  // the low threads work, 2 * step words apart
    if (index < blockDim.x) s[index] += s[index + step];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

void launch_block_sum(const float* in, float* out, int n) {
  block_sum<<<lab::blocks_for(n, kThreads), kThreads>>>(in, out, n);
}
