// Lab 16 harness (labs/16-flash-attention/README.md): the sizes, Q, K and V, the CPU
// reference and the comparison. Your file includes it and defines launch_attention.
#pragma once
#include "simtlab_lab.cuh"

constexpr int kHeadDim = 32;  // d: one warp's worth of floats per row of Q, K, V, O

// Single-head attention forward, no mask: O = softmax(Q K^T / sqrt(d)) V, with Q, K, V
// and O row-major n x kHeadDim (one row per token).
void launch_attention(const float* q, const float* k, const float* v, float* o, int n);

int main(int argc, char** argv) {
  lab::Case c(argc, argv);
  const int n = int(c.size("n", 64));
  const int d = kHeadDim;
  lab::Random random(16);
  // Q and K in [-2, 2]: scores up to a few units, so the softmax is neither flat nor
  // one-hot and every key matters.
  const std::vector<float> q = random.floats(std::size_t(n) * d, -2.0f, 2.0f);
  const std::vector<float> k = random.floats(std::size_t(n) * d, -2.0f, 2.0f);
  const std::vector<float> v = random.floats(std::size_t(n) * d, -1.0f, 1.0f);

  // The textbook order: the scores of a row, their softmax, then P V.
  std::vector<float> want(std::size_t(n) * d), s(n);
  const float scale = 1.0f / std::sqrt(float(d));
  for (int i = 0; i < n; ++i) {
    float m = -INFINITY;
    for (int j = 0; j < n; ++j) {
      float dot = 0.0f;
      for (int c2 = 0; c2 < d; ++c2) dot += q[i * d + c2] * k[j * d + c2];
      s[j] = dot * scale;
      m = std::max(m, s[j]);
    }
    float sum = 0.0f;
    for (int j = 0; j < n; ++j) sum += s[j] = std::exp(s[j] - m);
    for (int c2 = 0; c2 < d; ++c2) {
      float acc = 0.0f;
      for (int j = 0; j < n; ++j) acc += s[j] * v[j * d + c2];
      want[i * d + c2] = acc / sum;
    }
  }

  const float* d_q = c.to_device("q", q);
  const float* d_k = c.to_device("k", k);
  const float* d_v = c.to_device("v", v);
  float* d_o = c.output<float>("o", want.size());
  launch_attention(d_q, d_k, d_v, d_o, n);
  // Near, not equal: a fused kernel adds the dot products, the softmax sum and P V in
  // another order than these loops, rescales its running sums by exp(m_old - m_new) as
  // the max grows, and the GPU's expf need not round like std::exp. O is an average of
  // V's entries (|v| <= 1); each of these moves it by a few ulps of 1, so 2e-6 absolute
  // (some 30 ulps of 1) + 1e-5 relative: a wrong scale, a lost rescaling or a missing
  // key changes O by 1e-2 or more.
  if (c.launched("launch_attention")) c.expect_near("o", c.to_host(d_o, want.size()), want, 2e-6, 1e-5);
  return c.finish();
}
