// Lab 14 — fused softmax. Read labs/14-fused-softmax/README.md (simt lab show fused-softmax).
// Check your work: simt lab check fused-softmax softmax.cu
//
// This version is right but slow: three kernels, each a full pass over the matrix,
// talking through two global temporaries (the row max and the row sum). Fuse them.
#include "lab.cuh"

// Columns a row may see: all of them, or with the causal mask only j <= i.
__device__ int visible_cols(int row, int cols, bool causal) { return causal ? min(row + 1, cols) : cols; }

// Pass 1: one thread per row finds the row's max. Neighbouring threads walk
// neighbouring rows, `cols` floats apart: every lane of a warp load touches its own sector.
__global__ void row_max(const float* x, float* m, int rows, int cols, bool causal) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  float best = -INFINITY;
  for (int j = 0; j < visible_cols(i, cols, causal); ++j) best = fmaxf(best, x[i * cols + j]);
  m[i] = best;
}

// Pass 2: one thread per row sums exp(x - max), reading x and the max again.
__global__ void row_sum(const float* x, const float* m, float* s, int rows, int cols, bool causal) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  float sum = 0.0f;
  for (int j = 0; j < visible_cols(i, cols, causal); ++j) sum += expf(x[i * cols + j] - m[i]);
  s[i] = sum;
}

// Pass 3: one thread per element normalises, reading x a third time.
__global__ void normalise(const float* x, const float* m, const float* s, float* y, int rows, int cols, bool causal) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= rows * cols) return;
  const int i = k / cols, j = k % cols;
  y[k] = j < visible_cols(i, cols, causal) ? expf(x[k] - m[i]) / s[i] : 0.0f;
}

// TODO 1: replace the three kernels by one, `softmax`, launched with one block per
//         row: the block's threads stride over the row's columns together
//         (j = threadIdx.x, threadIdx.x + blockDim.x, ...), so a warp's loads are coalesced.
// TODO 2: the row max and the row sum become block reductions (warp shuffles, then
//         one value per warp through shared memory, with __syncthreads() between) —
//         no global temporaries.
// TODO 3: read x from global memory at most twice: keep a running max and a running
//         sum that is rescaled by expf(old_max - new_max) whenever the max grows
//         (online softmax), then one pass that writes y.
void launch_softmax(const float* x, float* y, int rows, int cols, bool causal) {
  float *m = nullptr, *s = nullptr;
  cudaMalloc(&m, rows * sizeof(float));
  cudaMalloc(&s, rows * sizeof(float));
  const unsigned threads = 128;
  row_max<<<lab::blocks_for(rows, threads), threads>>>(x, m, rows, cols, causal);
  row_sum<<<lab::blocks_for(rows, threads), threads>>>(x, m, s, rows, cols, causal);
  normalise<<<lab::blocks_for(rows * cols, threads), threads>>>(x, m, s, y, rows, cols, causal);
  cudaFree(m);
  cudaFree(s);
}
