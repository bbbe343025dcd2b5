// Lab 06 — prefix sum of each block's segment. Read labs/06-prefix-sum/README.md
// (simt lab show prefix-sum). Check your work: simt lab check prefix-sum scan.cu
#include "lab.cuh"

// As it is, each thread adds up its segment from the start to its own element: the
// output is right, but thread t reads `a` t + 1 times (256 times for the last thread).
// Make each thread read `a` once and share the partial sums in shared memory.
__global__ void scan(const int* a, int* out, int n) {
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  const int first = blockIdx.x * blockDim.x;
  // TODO 1: a __shared__ array of kScanThreads ints; each thread stores a[i] there
  //         (0 when i >= n), then a barrier.
  // TODO 2: Hillis-Steele: for d = 1, 2, 4, ... 128, each thread t >= d adds s[t - d]
  //         to s[t]. Read s[t - d] into a register first, barrier, then add, barrier:
  //         a thread must not read a word that another thread already changed in the
  //         same step.
  // TODO 3: out[i] = s[t] for i < n.
  if (i < n) {
    int sum = 0;
    for (int k = first; k <= i; ++k) sum += a[k];
    out[i] = sum;
  }
}

void launch_scan(const int* a, int* out, int n) {
  scan<<<lab::blocks_for(n, kScanThreads), kScanThreads>>>(a, out, n);
}
