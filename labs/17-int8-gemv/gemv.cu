// Lab 17 — int8 GEMV. Read labs/17-int8-gemv/README.md (simt lab show int8-gemv).
// Check your work: simt lab check int8-gemv gemv.cu
//
// Decoding one token multiplies every weight matrix by one vector: each weight is
// used once, so the time is the time to read W. This version reads the fp32 copy of
// W — 4 bytes a weight. The same weights are there as int8 with a scale per row.
#include "lab.cuh"

constexpr int kRowsPerBlock = 8;  // one warp per row
constexpr int kThreads = kRowsPerBlock * 32;

__global__ void gemv(const float* w, const int8_t* w_q, const float* scale, const float* x, float* y, int rows,
                     int cols) {
  const int lane = threadIdx.x % 32;
  const int row = blockIdx.x * kRowsPerBlock + threadIdx.x / 32;
  if (row >= rows) return;  // a whole warp leaves together: the shuffles below see full warps

  // TODO 1: read the int8 weights w_q instead of w: 1 byte a weight instead of 4.
  // TODO 2: convert each int8 to float and multiply by x[j] (plain arithmetic; the
  //         products of the row all share one scale).
  // TODO 3: multiply the row's sum by scale[row] once, after the reduction.
  float acc = 0.0f;
  for (int j = lane; j < cols; j += 32) acc += w[size_t(row) * cols + j] * x[j];  // lanes read neighbouring weights

  for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, offset);
  if (lane == 0) y[row] = acc;
}

void launch_gemv(const float* w, const int8_t* w_q, const float* scale, const float* x, float* y, int rows, int cols) {
  gemv<<<lab::blocks_for(rows, kRowsPerBlock), kThreads>>>(w, w_q, scale, x, y, rows, cols);
}
