// Lab 09 without the shared tile: each thread copies in[r][c] straight to out[c][r].
// Loads are coalesced (lanes walk c), but the lanes' stores are `rows` floats apart:
// 32 sectors per store request. No barrier either.
#include "lab.cuh"

__global__ void transpose(const float* in, float* out, int rows, int cols) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];
}

void launch_transpose(const float* in, float* out, int rows, int cols) {
  const dim3 threads(32, 8);
  const dim3 blocks(lab::blocks_for(cols, threads.x), lab::blocks_for(rows, threads.y));
  transpose<<<blocks, threads>>>(in, out, rows, cols);
}
