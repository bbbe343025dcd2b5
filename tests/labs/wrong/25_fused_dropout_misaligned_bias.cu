// Planted wrong file for lab 25: float4 everywhere, bias too, without asking whether
// cols % 4 == 0 and without a tail: the 5 x 7 case reads bias through a misaligned
// float4 and runs past the end of every array.
#include "lab.cuh"

__global__ void bias_dropout_residual(const float* x, const float* bias, const float* residual, float* out, int n,
                                      int cols, float p, unsigned seed) {
  const int first = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (first >= n) return;
  const float4 xv = *reinterpret_cast<const float4*>(x + first);
  const float4 rv = *reinterpret_cast<const float4*>(residual + first);
  const float4 bv = *reinterpret_cast<const float4*>(bias + first % cols);
  const float scale = 1.0f / (1.0f - p);
  float4 o;
  o.x = rv.x + (keep(seed, unsigned(first), p) ? (xv.x + bv.x) * scale : 0.0f);
  o.y = rv.y + (keep(seed, unsigned(first + 1), p) ? (xv.y + bv.y) * scale : 0.0f);
  o.z = rv.z + (keep(seed, unsigned(first + 2), p) ? (xv.z + bv.z) * scale : 0.0f);
  o.w = rv.w + (keep(seed, unsigned(first + 3), p) ? (xv.w + bv.w) * scale : 0.0f);
  *reinterpret_cast<float4*>(out + first) = o;
}

void launch_bias_dropout_residual(const float* x, const float* bias, const float* residual, float* out, int rows,
                                  int cols, float p, unsigned seed) {
  const int n = rows * cols;
  bias_dropout_residual<<<lab::blocks_for((n + 3) / 4, 256), 256>>>(x, bias, residual, out, n, cols, p, seed);
}
