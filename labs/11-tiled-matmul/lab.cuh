// Lab 11 harness (labs/11-tiled-matmul/README.md): the matrices, the CPU reference
// and the comparison. Your file includes it and defines launch_matmul.
#pragma once
#include "simtlab_lab.cuh"

// C = A * B in fp32: A is m x k, B is k x n, C is m x n, all row-major.
void launch_matmul(const float* A, const float* B, float* C, int m, int n, int k);

int main(int argc, char** argv) {
  lab::Case c(argc, argv);
  const int m = int(c.size("m", 64));
  const int n = int(c.size("n", 64));
  const int k = int(c.size("k", 64));
  lab::Random rng(11);
  const std::vector<float> a = rng.floats(std::size_t(m) * k, -1.0f, 1.0f);
  const std::vector<float> b = rng.floats(std::size_t(k) * n, -1.0f, 1.0f);
  // The reference adds the products in the order p = 0, 1, ..., k-1, one rounding
  // after each multiply and each add (no fused multiply-add). A kernel that walks k in
  // the same order — the naive loop, or tiles taken in order with the inner loop in
  // order — gets the same floats bit for bit, so the comparison is exact.
  std::vector<float> want(std::size_t(m) * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (int p = 0; p < k; ++p) {
        const float prod = a[std::size_t(i) * k + p] * b[std::size_t(p) * n + j];
        acc = acc + prod;
      }
      want[std::size_t(i) * n + j] = acc;
    }

  const float* d_a = c.to_device("A", a);
  const float* d_b = c.to_device("B", b);
  float* d_c = c.output<float>("C", want.size());
  launch_matmul(d_a, d_b, d_c, m, n, k);
  if (c.launched("launch_matmul")) c.expect_equal("C", c.to_host(d_c, want.size()), want);
  return c.finish();
}
