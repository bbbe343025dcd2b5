// Lab 24 harness (labs/24-tensor-core-gemm/README.md): fp16 A and B, the CPU
// reference and the comparison. Your file includes it and defines launch_matmul.
#pragma once
#include <cuda_fp16.h>

#include "simtlab_lab.cuh"

// C = A @ B: A is m x k, B is k x n, both fp16 and row-major; C is m x n fp32.
void launch_matmul(const half* A, const half* B, float* C, int m, int n, int k);

int main(int argc, char** argv) {
  lab::Case c(argc, argv);
  const int m = int(c.size("m", 64)), n = int(c.size("n", 64)), k = int(c.size("k", 64));
  lab::Random random(24);
  // Multiples of 1/64 in [-1, 1): exact in fp16, every product a multiple of 2^-12,
  // every sum of up to 64 of them exact in fp32 — and in the tensor cores' adder,
  // which keeps 25 bits below the largest exponent of each step.
  auto values = [&](std::size_t count) {
    std::vector<float> v(count);
    for (float& x : v) x = float(random.integer(-64, 63)) / 64.0f;
    return v;
  };
  const std::vector<float> a = values(std::size_t(m) * k), b = values(std::size_t(k) * n);
  std::vector<half> a16(a.size()), b16(b.size());
  for (std::size_t i = 0; i < a.size(); ++i) a16[i] = __float2half(a[i]);
  for (std::size_t i = 0; i < b.size(); ++i) b16[i] = __float2half(b[i]);
  std::vector<float> want(std::size_t(m) * n, 0.0f);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int p = 0; p < k; ++p) want[std::size_t(i) * n + j] += a[std::size_t(i) * k + p] * b[std::size_t(p) * n + j];

  const half* d_a = c.to_device("A", a16);
  const half* d_b = c.to_device("B", b16);
  float* d_c = c.output<float>("C", std::size_t(m) * n);
  launch_matmul(d_a, d_b, d_c, m, n, k);
  // Exact: with these inputs no rounding happens anywhere, in FFMA or in the MMA.
  if (c.launched("launch_matmul")) c.expect_equal("C", c.to_host(d_c, std::size_t(m) * n), want);
  return c.finish();
}
