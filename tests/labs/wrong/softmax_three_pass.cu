// Lab 14 fused into one kernel but with three passes over x: max, then sum of exp,
// then normalise. The outputs are right and there is one launch, but x is read three
// times (3072 sectors at 64 x 128): the online running sum saves one of them.
#include "lab.cuh"

constexpr int kThreads = 128;
constexpr int kWarps = kThreads / 32;

// The block's reduction of v (max when `is_max`, else sum); every thread gets it.
__device__ float block_reduce(float v, bool is_max, float* shared) {
  for (int offset = 16; offset > 0; offset /= 2) {
    const float o = __shfl_xor_sync(0xffffffffu, v, offset);
    v = is_max ? fmaxf(v, o) : v + o;
  }
  if (threadIdx.x % 32 == 0) shared[threadIdx.x / 32] = v;
  __syncthreads();
  v = shared[0];
  for (int w = 1; w < kWarps; ++w) v = is_max ? fmaxf(v, shared[w]) : v + shared[w];
  __syncthreads();  // the next reduction reuses `shared`
  return v;
}

__global__ void softmax(const float* x, float* y, int cols, bool causal) {
  __shared__ float shared[kWarps];
  const int row = blockIdx.x;
  const float* xr = x + size_t(row) * cols;
  float* yr = y + size_t(row) * cols;
  const int visible = causal ? min(row + 1, cols) : cols;

  float m = -INFINITY;
  for (int j = threadIdx.x; j < visible; j += blockDim.x) m = fmaxf(m, xr[j]);
  m = block_reduce(m, true, shared);
  float s = 0.0f;
  for (int j = threadIdx.x; j < visible; j += blockDim.x) s += expf(xr[j] - m);
  s = block_reduce(s, false, shared);
  for (int j = threadIdx.x; j < cols; j += blockDim.x) yr[j] = j < visible ? expf(xr[j] - m) / s : 0.0f;
}

void launch_softmax(const float* x, float* y, int rows, int cols, bool causal) {
  softmax<<<rows, kThreads>>>(x, y, cols, causal);
}
