// Transpose through a shared-memory tile: the block reads a 32 x 32 tile with
// coalesced loads (rows of the input), then writes it out with coalesced
// stores (rows of the output), reading the tile by columns in between.
//
// The column read is where it hurts: tile[tx][c] for tx = 0..31 are words
// tx*32 + c, all in bank c mod 32, so one warp's read takes 32 wavefronts
// (31 bank conflicts). transpose_padded removes them.
#include "kernels/harness.hpp"
#include "kernels/transpose_common.cuh"
#include <cuda_runtime.h>

__global__ void transpose_shared(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int in_col = blockIdx.x * kTile + tx;
  for (int j = 0; j < kTile; j += kBlockRows) {
    const int in_row = blockIdx.y * kTile + ty + j;
    if (in_row < rows && in_col < cols) tile[ty + j][tx] = in[in_row * cols + in_col];  // row write: conflict-free
  }
  __syncthreads();
  // The same tile lands at the mirrored block position; lanes walk its columns.
  const int out_col = blockIdx.y * kTile + tx;
  for (int j = 0; j < kTile; j += kBlockRows) {
    const int out_row = blockIdx.x * kTile + ty + j;
    if (out_row < cols && out_col < rows) out[out_row * rows + out_col] = tile[tx][ty + j];  // column read: 32-way
  }
}

namespace {
simt::kernels::Outputs run(const simt::kernels::Params& p) { return transpose::run(p, transpose_shared); }

simt::kernels::Registration reg({"transpose_shared",
                                 "out = in^T via a 32x32 shared tile: coalesced, but 32-way bank conflicts on the column read",
                                 transpose::params(), run, transpose::check});
}  // namespace
