// Transpose through a padded shared-memory tile: transpose_shared with one
// unused column added to the tile. A tile row is now 33 words long, so column
// c of rows tx = 0..31 sits at words tx*33 + c, in banks (tx + c) mod 32: all
// 32 different. The column read takes one wavefront; global traffic is
// unchanged (4 sectors per request both ways).
#include "kernels/harness.hpp"
#include "kernels/transpose_common.cuh"
#include <cuda_runtime.h>

__global__ void transpose_padded(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[kTile][kTile + 1];  // + 1: shifts each row by one bank
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
    if (out_row < cols && out_col < rows) out[out_row * rows + out_col] = tile[tx][ty + j];  // conflict-free
  }
}

namespace {
simt::kernels::Outputs run(const simt::kernels::Params& p) { return transpose::run(p, transpose_padded); }

simt::kernels::Registration reg({"transpose_padded", "out = in^T via a 32x33 (padded) shared tile: no bank conflicts",
                                 transpose::params(), run, transpose::check});
}  // namespace
