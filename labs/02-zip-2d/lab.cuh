// Lab 02 harness (labs/02-zip-2d/README.md): the sizes, the inputs, the CPU reference
// and the comparison. Your file includes it and defines launch_add2d.
#pragma once
#include "simtlab_lab.cuh"

// out[r][c] = a[r][c] + b[r][c] for a rows x cols matrix stored row by row
// (element (r, c) at index r * cols + c), one thread per element on a 2-D grid.
void launch_add2d(const float* a, const float* b, float* out, int rows, int cols);

int main(int argc, char** argv) {
  lab::Case c(argc, argv);
  const int rows = int(c.size("rows", 48));
  const int cols = int(c.size("cols", 80));
  const std::size_t n = std::size_t(rows) * cols;
  const std::vector<float> a = lab::Random(2).floats(n, -4.0f, 4.0f);
  const std::vector<float> b = lab::Random(3).floats(n, -4.0f, 4.0f);
  std::vector<float> want(n);
  for (std::size_t i = 0; i < n; ++i) want[i] = a[i] + b[i];  // one fp32 add: bit for bit

  const float* d_a = c.to_device("a", a);
  const float* d_b = c.to_device("b", b);
  float* d_out = c.output<float>("out", n);
  launch_add2d(d_a, d_b, d_out, rows, cols);
  if (c.launched("launch_add2d")) c.expect_equal("out", c.to_host(d_out, n), want);
  return c.finish();
}
