// Planted wrong file for lab 25: fused into one launch, but one float per thread: right
// output, right sectors, 4x the load requests of 16-byte accesses.
#include "lab.cuh"

__global__ void bias_dropout_residual(const float* x, const float* bias, const float* residual, float* out, int n,
                                      int cols, float p, unsigned seed) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) out[k] = residual[k] + (keep(seed, unsigned(k), p) ? (x[k] + bias[k % cols]) * (1.0f / (1.0f - p)) : 0.0f);
}

void launch_bias_dropout_residual(const float* x, const float* bias, const float* residual, float* out, int rows,
                                  int cols, float p, unsigned seed) {
  const int n = rows * cols;
  bias_dropout_residual<<<lab::blocks_for(n, 256), 256>>>(x, bias, residual, out, n, cols, p, seed);
}
