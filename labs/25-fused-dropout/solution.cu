// Lab 25 — a solution: one launch, 4 consecutive elements per thread with float4
// accesses (scalar for the tail, and throughout when cols % 4 != 0).
#include "lab.cuh"

__global__ void bias_dropout_residual(const float* x, const float* bias, const float* residual, float* out, int n,
                                      int cols, float p, unsigned seed) {
  const int first = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (first >= n) return;
  const float scale = 1.0f / (1.0f - p);
  // 4 whole elements of one row, bias 16-byte aligned: cols % 4 == 0 gives both.
  if (cols % 4 == 0 && first + 4 <= n) {
    const float4 xv = *reinterpret_cast<const float4*>(x + first);
    const float4 bv = *reinterpret_cast<const float4*>(bias + first % cols);
    const float4 rv = *reinterpret_cast<const float4*>(residual + first);
    const float v[4] = {xv.x + bv.x, xv.y + bv.y, xv.z + bv.z, xv.w + bv.w};
    const float r[4] = {rv.x, rv.y, rv.z, rv.w};
    float o[4];
    for (int i = 0; i < 4; ++i) o[i] = r[i] + (keep(seed, unsigned(first + i), p) ? v[i] * scale : 0.0f);
    *reinterpret_cast<float4*>(out + first) = make_float4(o[0], o[1], o[2], o[3]);
  } else {  // the tail, or rows not 16-byte aligned: one element at a time
    for (int k = first; k < min(first + 4, n); ++k)
      out[k] = residual[k] + (keep(seed, unsigned(k), p) ? (x[k] + bias[k % cols]) * scale : 0.0f);
  }
}

void launch_bias_dropout_residual(const float* x, const float* bias, const float* residual, float* out, int rows,
                                  int cols, float p, unsigned seed) {
  const int n = rows * cols;
  const unsigned threads = 256;
  bias_dropout_residual<<<lab::blocks_for((n + 3) / 4, threads), threads>>>(x, bias, residual, out, n, cols, p, seed);
}
