// Lab 14 harness (labs/14-fused-softmax/README.md): the sizes, the scores, the CPU
// reference and the comparison. Your file includes it and defines launch_softmax.
#pragma once
#include "simtlab_lab.cuh"

// y[i][j] = exp(x[i][j] - max_i) / sum_i for each row i of a rows x cols matrix of
// attention scores (row-major). With `causal`, row i sees only columns j <= i: the
// others count as -inf, so their y is exactly 0 and they take no part in max or sum.
void launch_softmax(const float* x, float* y, int rows, int cols, bool causal);

int main(int argc, char** argv) {
  lab::Case c(argc, argv);
  const int rows = int(c.size("rows", 64));
  const int cols = int(c.size("cols", 128));
  const bool causal = c.size("causal", 0) != 0;
  // Scores of the size attention produces (|x| up to 8): exp would overflow float
  // past 88 without the max subtracted, and the max matters here.
  const std::vector<float> x = lab::Random(14).floats(std::size_t(rows) * cols, -8.0f, 8.0f);

  std::vector<float> want(x.size(), 0.0f);
  for (int i = 0; i < rows; ++i) {
    const float* xi = &x[std::size_t(i) * cols];
    const int visible = causal ? std::min(i + 1, cols) : cols;
    float m = -INFINITY;
    for (int j = 0; j < visible; ++j) m = std::max(m, xi[j]);
    float sum = 0.0f;
    for (int j = 0; j < visible; ++j) sum += std::exp(xi[j] - m);
    for (int j = 0; j < visible; ++j) want[std::size_t(i) * cols + j] = std::exp(xi[j] - m) / sum;
  }

  const float* d_x = c.to_device("x", x);
  float* d_y = c.output<float>("y", x.size());
  launch_softmax(d_x, d_y, rows, cols, causal);
  // Near, not equal: the GPU's expf and the CPU's std::exp may differ in the last bit
  // (simtlab reproduces the GPU's expf, not glibc's), and a block sums the row in
  // another order than this loop. Both move y by a few ulps: 1e-5 relative is some
  // 100 ulps of room, and masked entries must be exactly 0 (the absolute 1e-12 admits
  // only values no exp of a visible score reaches at these sizes).
  if (c.launched("launch_softmax")) c.expect_near("y", c.to_host(d_y, x.size()), want, 1e-12, 1e-5);
  return c.finish();
}
