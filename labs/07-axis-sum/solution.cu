// Lab 07 — sum over the rows, one thread per column: a solution
// (labs/07-axis-sum/README.md).
#include "lab.cuh"

__global__ void column_sum(const float* a, float* out, int rows, int cols) {
  // Consecutive threads take consecutive columns. At each row r the 32 lanes of a warp
  // read a[r * cols + c] for 32 consecutive c: 128 contiguous bytes, one coalesced load.
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  float sum = 0.0f;
  for (int r = 0; r < rows; ++r) sum += a[r * cols + c];
  out[c] = sum;  // the sum stays in a register until the end: one write
}

void launch_column_sum(const float* a, float* out, int rows, int cols) {
  const unsigned threads = 256;
  column_sum<<<lab::blocks_for(cols, threads), threads>>>(a, out, rows, cols);
}
