// Lab 09 with the right outputs and the tile padded by two columns: tile[t][c] is word
// 34t + c, bank (2t + c) % 32, so rows t and t + 16 share a bank: 2-way conflicts on
// the column read (one extra wavefront per load).
#include "lab.cuh"

constexpr int kTile = 32;
constexpr int kBlockRows = 8;

__global__ void transpose(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[kTile][kTile + 2];  // + 2: rows 34 words apart, bank (2t + c) % 32
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
