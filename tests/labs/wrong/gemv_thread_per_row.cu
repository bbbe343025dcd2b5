// Lab 17 with int8 weights but one thread per row, a single block of 64 threads
// striding over the rows. The outputs are right; but the 32 lanes of a warp read 32
// different rows, cols bytes apart, so each lane's 1-byte load costs a sector of its
// own (32 sectors per request instead of 1), and each thread writes y four times.
#include "lab.cuh"

__global__ void gemv(const int8_t* w_q, const float* scale, const float* x, float* y, int rows, int cols) {
  for (int row = blockIdx.x * blockDim.x + threadIdx.x; row < rows; row += gridDim.x * blockDim.x) {
    const int8_t* wr = w_q + size_t(row) * cols;
    float acc = 0.0f;
    for (int j = 0; j < cols; ++j) acc += float(wr[j]) * x[j];
    y[row] = acc * scale[row];
  }
}

void launch_gemv(const float*, const int8_t* w_q, const float* scale, const float* x, float* y, int rows, int cols) {
  gemv<<<1, 64>>>(w_q, scale, x, y, rows, cols);
}
