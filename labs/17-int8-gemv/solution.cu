// Lab 17 — int8 GEMV: a solution (labs/17-int8-gemv/README.md).
// One warp per row; lanes read neighbouring int8 weights (32 bytes: one sector per
// warp load, against four for fp32) and the row's scale is applied once, at the end.
#include "lab.cuh"

constexpr int kRowsPerBlock = 8;  // one warp per row
constexpr int kThreads = kRowsPerBlock * 32;

__global__ void gemv(const int8_t* w_q, const float* scale, const float* x, float* y, int rows, int cols) {
  const int lane = threadIdx.x % 32;
  const int row = blockIdx.x * kRowsPerBlock + threadIdx.x / 32;
  if (row >= rows) return;  // a whole warp leaves together: the shuffles below see full warps

  // sum_j (q_j * s) x_j == s * sum_j q_j x_j: the scale is common to the row.
  const int8_t* wr = w_q + size_t(row) * cols;
  float acc = 0.0f;
  for (int j = lane; j < cols; j += 32) acc += float(wr[j]) * x[j];

  for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, offset);
  if (lane == 0) y[row] = acc * scale[row];
}

void launch_gemv(const float*, const int8_t* w_q, const float* scale, const float* x, float* y, int rows, int cols) {
  gemv<<<lab::blocks_for(rows, kRowsPerBlock), kThreads>>>(w_q, scale, x, y, rows, cols);
}
