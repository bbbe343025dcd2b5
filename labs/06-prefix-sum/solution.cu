// Lab 06 — prefix sum of each block's segment (Hillis-Steele): a solution
// (labs/06-prefix-sum/README.md).
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
    // Every thread reads before any thread writes: without this barrier thread t could
    // read s[t - d] after thread t - d already added to it in this step.
    __syncthreads();
    s[t] += left;
    // And every write of this step lands before the next step reads.
    __syncthreads();
  }
  if (i < n) out[i] = s[t];
}

void launch_scan(const int* a, int* out, int n) {
  scan<<<lab::blocks_for(n, kScanThreads), kScanThreads>>>(a, out, n);
}
