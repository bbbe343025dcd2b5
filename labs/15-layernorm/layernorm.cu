// Lab 15 — LayerNorm. Read labs/15-layernorm/README.md (simt lab show layernorm).
// Check your work: simt lab check layernorm layernorm.cu
//
// This version is right but slow: three kernels (mean, rstd, normalise), each its
// own pass over x, the first two with one thread per row. Fuse them.
#include "lab.cuh"

// Pass 1: one thread per row adds its row. Neighbouring threads read neighbouring
// rows, `cols` floats apart: every lane's load is a sector of its own.
__global__ void row_mean(const float* x, float* mean, int rows, int cols) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  float sum = 0.0f;
  for (int j = 0; j < cols; ++j) sum += x[i * cols + j];
  mean[i] = sum / cols;
}

// Pass 2: one thread per row, x read again, for the variance about the mean.
__global__ void row_rstd(const float* x, const float* mean, float* rstd, int rows, int cols) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  float sq = 0.0f;
  for (int j = 0; j < cols; ++j) sq += (x[i * cols + j] - mean[i]) * (x[i * cols + j] - mean[i]);
  rstd[i] = rsqrtf(sq / cols + kEps);
}

// Pass 3: one thread per element, x read a third time.
__global__ void normalise(const float* x, const float* gamma, const float* beta, const float* mean, const float* rstd,
                          float* out, int rows, int cols) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= rows * cols) return;
  const int i = k / cols, j = k % cols;
  out[k] = (x[k] - mean[i]) * rstd[i] * gamma[j] + beta[j];
}

// TODO 1: replace the three kernels by one, `layernorm`, with one block per row; the
//         block's threads stride over the row's columns (j = threadIdx.x, + blockDim.x, ...).
// TODO 2: the sum for the mean and the sum of squares for the variance become block
//         reductions (warp shuffles, then one value per warp through shared memory,
//         with __syncthreads() between); one thread writes mean[row] and rstd[row].
// TODO 3: read x from global memory once: copy the row into shared memory
//         (extern __shared__ float row[]; launch with cols * sizeof(float) of dynamic
//         shared memory) and compute the mean, the variance and out from there.
void launch_layernorm(const float* x, const float* gamma, const float* beta, float* out, float* mean, float* rstd,
                      int rows, int cols) {
  const unsigned threads = 128;
  row_mean<<<lab::blocks_for(rows, threads), threads>>>(x, mean, rows, cols);
  row_rstd<<<lab::blocks_for(rows, threads), threads>>>(x, mean, rstd, rows, cols);
  normalise<<<lab::blocks_for(rows * cols, threads), threads>>>(x, gamma, beta, mean, rstd, out, rows, cols);
}
