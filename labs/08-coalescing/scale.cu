// Lab 08 — coalescing: which thread takes which element. Read labs/08-coalescing/README.md
// (simt lab show coalescing). Check your work: simt lab check coalescing scale.cu
//
// This file is already correct: every element of `out` is right. It is slow: the 32
// threads of a warp (consecutive threadIdx.x) take 32 consecutive ROWS of one column,
// floats `cols` apart in memory, so each warp-wide load touches 32 different 32-byte
// sectors. Make the warp walk along a row instead.
#include "lab.cuh"

__global__ void scale(const float* in, float* out, int rows, int cols, float alpha) {
  // TODO 1: threadIdx.x is the fastest-changing index inside a warp. Give it the
  //         COLUMN (the index that is contiguous in memory) and threadIdx.y the row.
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  const int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) out[row * cols + col] = alpha * in[row * cols + col];
}

void launch_scale(const float* in, float* out, int rows, int cols, float alpha) {
  const dim3 threads(32, 8);
  // TODO 2: once x walks columns, the grid's x must cover the columns (32 per block)
  //         and its y the rows (8 per block).
  const dim3 blocks(lab::blocks_for(rows, threads.x), lab::blocks_for(cols, threads.y));
  scale<<<blocks, threads>>>(in, out, rows, cols, alpha);
}
