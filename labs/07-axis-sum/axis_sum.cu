// Lab 07 — sum over the rows, one thread per column. Read labs/07-axis-sum/README.md
// (simt lab show axis-sum). Check your work: simt lab check axis-sum axis_sum.cu
#include "lab.cuh"

__global__ void column_sum(const float* a, float* out, int rows, int cols) {
  // TODO 1: this thread's column c, from blockIdx.x, blockDim.x and threadIdx.x — so
  //         that the lanes of a warp take neighbouring columns — and the guard c < cols.
  const int c = threadIdx.x;
  // TODO 2: walk down the column: add a[r * cols + c] for every row r, from r = 0 up
  //         (the reference adds in that order), in a register.
  float sum = a[c];
  // TODO 3: write the column's sum once.
  out[c] = sum;
}

void launch_column_sum(const float* a, float* out, int rows, int cols) {
  const unsigned threads = 256;
  // TODO 4: enough blocks for one thread per column.
  column_sum<<<1, threads>>>(a, out, rows, cols);
}
