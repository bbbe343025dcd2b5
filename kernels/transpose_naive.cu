// Transpose, naive: each thread copies in[row][col] to out[col][row] directly.
// A warp is 32 neighbouring columns of one input row, so its load is 32
// consecutive floats (4 sectors) but its store writes 32 output rows, `rows`
// floats apart: 32 sectors per request, 4 useful bytes in each.
#include "kernels/harness.hpp"
#include "kernels/transpose_common.cuh"
#include <cuda_runtime.h>

__global__ void transpose_naive(const float* in, float* out, int rows, int cols) {
  const int col = blockIdx.x * kTile + threadIdx.x;
  for (int j = 0; j < kTile; j += kBlockRows) {
    const int row = blockIdx.y * kTile + threadIdx.y + j;
    if (row < rows && col < cols) out[col * rows + row] = in[row * cols + col];
  }
}

namespace {
simt::kernels::Outputs run(const simt::kernels::Params& p) { return transpose::run(p, transpose_naive); }

simt::kernels::Registration reg({"transpose_naive", "out = in^T straight through global memory: strided stores",
                                 transpose::params(), run, transpose::check});
}  // namespace
