// Lab 04 — pooling with shared memory: a solution (labs/04-pooling/README.md).
#include "lab.cuh"

constexpr int kThreads = 256;
constexpr int kHalo = 2;  // the window reaches 2 elements to the left

__global__ void pool3(const float* a, float* out, int n) {
  // The block's tile: tile[kHalo + t] holds a[first + t]; tile[0] and tile[1] hold the
  // two elements left of the block (the halo), which the previous block also loads.
  __shared__ float tile[kHalo + kThreads];
  const int t = threadIdx.x;
  const int first = blockIdx.x * blockDim.x;
  const int i = first + t;

  // Every thread stores one tile element, 0 past the end, so the sums below never read
  // an unwritten word. The first kHalo threads also load the halo (0 left of a[0]).
  tile[kHalo + t] = i < n ? a[i] : 0.0f;
  if (t < kHalo) tile[t] = first - kHalo + t >= 0 ? a[first - kHalo + t] : 0.0f;

  // Thread t reads tile[t] and tile[t + 1], which threads t - 2 and t - 1 wrote — for
  // t = 32 those are in another warp. No thread may read before every thread wrote.
  // Every thread reaches this barrier: no early return above it.
  __syncthreads();

  if (i < n) out[i] = tile[t] + tile[t + 1] + tile[t + 2];
}

void launch_pool3(const float* a, float* out, int n) {
  pool3<<<lab::blocks_for(n, kThreads), kThreads>>>(a, out, n);
}
