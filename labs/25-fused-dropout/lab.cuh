// Lab 25 harness (labs/25-fused-dropout/README.md): the inputs, the dropout mask, the
// CPU reference and the comparison. Your file includes it and defines
// launch_bias_dropout_residual.
#pragma once
#include "simtlab_lab.cuh"

// Dropout's keep decision for element `index`: a counter-based hash of (seed, index),
// so any thread can draw any element's decision, in any order, and the backward pass
// can draw it again instead of storing a mask (as cuRAND's Philox is used in real
// kernels; this is a cheaper stand-in with the same property). Kept with probability
// 1 - p: the hash's top 24 bits as a uniform in [0, 1), compared with p.
__host__ __device__ inline bool keep(unsigned seed, unsigned index, float p) {
  unsigned h = index * 0x9E3779B9u ^ seed;  // the murmur3 finaliser mixes every bit
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  return float(h >> 8) * (1.0f / 16777216.0f) >= p;
}

// The epilogue after an attention or MLP output projection, for a rows x cols matrix
// (row-major): out = residual + dropout(x + bias[col]), where dropout keeps a value
// when keep(seed, row * cols + col, p) and scales it by 1 / (1 - p), else gives 0.
void launch_bias_dropout_residual(const float* x, const float* bias, const float* residual, float* out, int rows,
                                  int cols, float p, unsigned seed);

int main(int argc, char** argv) {
  lab::Case c(argc, argv);
  const int rows = int(c.size("rows", 64));
  const int cols = int(c.size("cols", 768));
  const float p = 0.1f;  // GPT-2's dropout
  const unsigned seed = 25;
  const std::size_t n = std::size_t(rows) * cols;
  lab::Random random(25);
  const std::vector<float> x = random.floats(n), bias = random.floats(cols), residual = random.floats(n);

  const float scale = 1.0f / (1.0f - p);
  std::vector<float> want(n);
  for (std::size_t k = 0; k < n; ++k) {
    const float v = x[k] + bias[k % cols];
    want[k] = residual[k] + (keep(seed, unsigned(k), p) ? v * scale : 0.0f);
  }

  const float* d_x = c.to_device("x", x);
  const float* d_bias = c.to_device("bias", bias);
  const float* d_residual = c.to_device("residual", residual);
  float* d_out = c.output<float>("out", n);
  launch_bias_dropout_residual(d_x, d_bias, d_residual, d_out, rows, cols, p, seed);
  // Near, not equal, by a few ulps: (x + bias) / (1 - p) and (x + bias) * (1 / (1 - p))
  // may differ in the last bit, and both are right. A wrong mask bit or a lost bias
  // moves an element by a whole value, far outside.
  if (c.launched("launch_bias_dropout_residual"))
    c.expect_near("out", c.to_host(d_out, n), want, 1e-6, 1e-6);
  return c.finish();
}
