// Lab 09 — bank conflicts: a solution (labs/09-bank-conflicts/README.md).
// The tile gets one unused column: a row is 33 words, so tile[t][c] is word 33t + c,
// in bank (t + c) % 32. A column's 32 words are in 32 different banks (one wavefront);
// a row's 32 words still are too. Global traffic is unchanged: 4 sectors per request.
#include "lab.cuh"

constexpr int kTile = 32;
constexpr int kBlockRows = 8;

__global__ void transpose(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[kTile][kTile + 1];  // + 1: each row starts one bank further on
  const int tx = threadIdx.x, ty = threadIdx.y;

  const int in_col = blockIdx.x * kTile + tx;
  for (int j = 0; j < kTile; j += kBlockRows) {
    const int in_row = blockIdx.y * kTile + ty + j;
    if (in_row < rows && in_col < cols) tile[ty + j][tx] = in[in_row * cols + in_col];
  }
  __syncthreads();

  const int out_col = blockIdx.y * kTile + tx;
  for (int j = 0; j < kTile; j += kBlockRows) {
    const int out_row = blockIdx.x * kTile + ty + j;
    if (out_row < cols && out_col < rows) out[out_row * rows + out_col] = tile[tx][ty + j];
  }
}

void launch_transpose(const float* in, float* out, int rows, int cols) {
  const dim3 threads(kTile, kBlockRows);
  const dim3 blocks(lab::blocks_for(cols, kTile), lab::blocks_for(rows, kTile));
  transpose<<<blocks, threads>>>(in, out, rows, cols);
}
