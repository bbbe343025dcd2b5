// Lab 09 — bank conflicts: a transpose through a shared-memory tile. Read
// labs/09-bank-conflicts/README.md (simt lab show bank-conflicts).
// Check your work: simt lab check bank-conflicts transpose.cu
//
// This file is already correct, and its global loads and stores are coalesced: each
// block copies a 32 x 32 tile of `in` into shared memory row by row, then writes it
// out transposed, again row by row. The price is paid in shared memory: reading the
// tile by COLUMN puts all 32 lanes of a warp in the same bank.
#include "lab.cuh"

constexpr int kTile = 32;      // a tile is 32 x 32 floats
constexpr int kBlockRows = 8;  // a block is 32 x 8 threads; each thread copies 4 floats

__global__ void transpose(const float* in, float* out, int rows, int cols) {
  // TODO 1: shared memory has 32 banks of 4 bytes; word w is in bank w % 32. Row t of
  //         this tile starts at word 32 * t, so tile[0][c], tile[1][c], ..., tile[31][c]
  //         are all in bank c. Change the tile's shape so that one column's 32 words
  //         fall in 32 different banks (the row reads must stay conflict-free too).
  __shared__ float tile[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;

  // Read a tile of `in`: lanes take consecutive columns of one row (coalesced).
  const int in_col = blockIdx.x * kTile + tx;
  for (int j = 0; j < kTile; j += kBlockRows) {
    const int in_row = blockIdx.y * kTile + ty + j;
    if (in_row < rows && in_col < cols) tile[ty + j][tx] = in[in_row * cols + in_col];
  }
  // Every thread reads words other threads wrote: all of them must be written first.
  __syncthreads();

  // Write the tile transposed: lanes take consecutive columns of one row of `out`
  // (coalesced), which are consecutive rows of one column of the tile.
  const int out_col = blockIdx.y * kTile + tx;
  for (int j = 0; j < kTile; j += kBlockRows) {
    const int out_row = blockIdx.x * kTile + ty + j;
    if (out_row < cols && out_col < rows) out[out_row * rows + out_col] = tile[tx][ty + j];  // TODO 2: conflicts here
  }
}

void launch_transpose(const float* in, float* out, int rows, int cols) {
  const dim3 threads(kTile, kBlockRows);
  const dim3 blocks(lab::blocks_for(cols, kTile), lab::blocks_for(rows, kTile));
  transpose<<<blocks, threads>>>(in, out, rows, cols);
}
