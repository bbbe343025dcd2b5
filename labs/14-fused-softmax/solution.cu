// Lab 14 — fused softmax: a solution (labs/14-fused-softmax/README.md).
// One block per row, one launch, x read twice: once for the running max and sum
// (online softmax), once to write y.
#include "lab.cuh"

constexpr int kThreads = 128;  // 4 warps per row
constexpr int kWarps = kThreads / 32;

// Merges the partial (max, sum) pair (m2, s2) into (m, s): both sums rescaled to the
// larger max. Two empty partials (max -inf) stay empty: -inf - -inf would be NaN.
__device__ void merge(float& m, float& s, float m2, float s2) {
  const float top = fmaxf(m, m2);
  if (top == -INFINITY) return;
  s = s * expf(m - top) + s2 * expf(m2 - top);
  m = top;
}

__global__ void softmax(const float* x, float* y, int cols, bool causal) {
  __shared__ float warp_m[kWarps], warp_s[kWarps];
  const int row = blockIdx.x, lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const float* xr = x + size_t(row) * cols;
  float* yr = y + size_t(row) * cols;
  const int visible = causal ? min(row + 1, cols) : cols;

  // Pass 1 over x: this thread's running max and its sum of exp(x - max).
  float m = -INFINITY, s = 0.0f;
  for (int j = threadIdx.x; j < visible; j += blockDim.x) merge(m, s, xr[j], 1.0f);

  // The block's (max, sum): within each warp by shuffles, then across the warps
  // through shared memory. Every thread ends with the row's pair.
  for (int offset = 16; offset > 0; offset /= 2)
    merge(m, s, __shfl_xor_sync(0xffffffffu, m, offset), __shfl_xor_sync(0xffffffffu, s, offset));
  if (lane == 0) warp_m[warp] = m, warp_s[warp] = s;
  __syncthreads();  // every warp's pair is in shared memory before anyone reads it
  m = warp_m[0], s = warp_s[0];
  for (int w = 1; w < kWarps; ++w) merge(m, s, warp_m[w], warp_s[w]);

  // Pass 2 over x: write the row; masked columns are exactly 0 and need no load.
  const float inv = 1.0f / s;
  for (int j = threadIdx.x; j < cols; j += blockDim.x) yr[j] = j < visible ? expf(xr[j] - m) * inv : 0.0f;
}

void launch_softmax(const float* x, float* y, int rows, int cols, bool causal) {
  softmax<<<rows, kThreads>>>(x, y, cols, causal);
}
