// Lab 08 with the right outputs and two columns per thread, taken as 2c and 2c + 1:
// the first load of a warp reads every other float, 256 bytes for 128 useful ones
// (8 sectors per request), and every thread reads `in` twice.
#include "lab.cuh"

__global__ void scale(const float* in, float* out, int rows, int cols, float alpha) {
  const int col = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= rows) return;
  if (col < cols) out[row * cols + col] = alpha * in[row * cols + col];
  if (col + 1 < cols) out[row * cols + col + 1] = alpha * in[row * cols + col + 1];
}

void launch_scale(const float* in, float* out, int rows, int cols, float alpha) {
  const dim3 threads(32, 8);
  const dim3 blocks(lab::blocks_for((cols + 1) / 2, threads.x), lab::blocks_for(rows, threads.y));
  scale<<<blocks, threads>>>(in, out, rows, cols, alpha);
}
