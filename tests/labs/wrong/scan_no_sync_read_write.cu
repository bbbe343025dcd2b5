// Lab 06 without the barrier between a step's reads and its writes: thread t reads
// s[t - d] while thread t - d adds to it in the same step. Whether t sees the old or the
// new value depends on which warp runs first (on a GPU, on the scheduler); the race
// detector stops the launch at the first such pair.
#include "lab.cuh"

__global__ void scan(const int* a, int* out, int n) {
  __shared__ int s[kScanThreads];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? a[i] : 0;  // past the end: 0, which changes no sum of a real element
  __syncthreads();
  // Hillis-Steele: after the step with offset d, s[t] holds the sum of the 2d elements
  // ending at t (fewer near the start). log2(256) = 8 steps.
  for (int d = 1; d < kScanThreads; d *= 2) {
    const int left = t >= d ? s[t - d] : 0;
    s[t] += left;  // the barrier between the read and the write is missing
    // And every write of this step lands before the next step reads.
    __syncthreads();
  }
  if (i < n) out[i] = s[t];
}

void launch_scan(const int* a, int* out, int n) {
  scan<<<lab::blocks_for(n, kScanThreads), kScanThreads>>>(a, out, n);
}
