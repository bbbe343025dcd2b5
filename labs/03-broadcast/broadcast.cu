// Lab 03 — broadcast: an outer sum. Read labs/03-broadcast/README.md
// (simt lab show broadcast). Check your work: simt lab check broadcast broadcast.cu
#include "lab.cuh"

// As it is, one thread per row loops over the columns: the output is right, but the
// thread reads a[i] again for every column (the store to out could have changed it, as
// far as the compiler knows), its stores are cols floats apart from its neighbours',
// and there are only `rows` threads. Make it one thread per element of out.
__global__ void outer_sum(const float* a, const float* b, float* out, int rows, int cols) {
  // TODO 1: this thread's column j and row i, from the x and the y parts of blockIdx,
  //         blockDim and threadIdx (x the column, as in lab 02).
  // TODO 2: guard both: i < rows and j < cols.
  // TODO 3: one element: out[i * cols + j] = a[i] + b[j] — no loop.
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    for (int j = 0; j < cols; ++j) out[i * cols + j] = a[i] + b[j];
}

void launch_outer_sum(const float* a, const float* b, float* out, int rows, int cols) {
  // TODO 4: 16 x 16 blocks, and a 2-D grid covering cols in x and rows in y.
  const unsigned threads = 256;
  outer_sum<<<lab::blocks_for(rows, threads), threads>>>(a, b, out, rows, cols);
}
