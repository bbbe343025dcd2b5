// Lab 03 harness (labs/03-broadcast/README.md): the sizes, the inputs, the CPU
// reference and the comparison. Your file includes it and defines launch_outer_sum.
#pragma once
#include "simtlab_lab.cuh"

// out[i][j] = a[i] + b[j]: a has `rows` elements, b has `cols`, out is rows x cols,
// row-major (out[i][j] at index i * cols + j). One thread per element of out.
void launch_outer_sum(const float* a, const float* b, float* out, int rows, int cols);

int main(int argc, char** argv) {
  lab::Case c(argc, argv);
  const int rows = int(c.size("rows", 48));
  const int cols = int(c.size("cols", 80));
  const std::vector<float> a = lab::Random(7).floats(rows, -4.0f, 4.0f);
  const std::vector<float> b = lab::Random(8).floats(cols, -4.0f, 4.0f);
  std::vector<float> want(std::size_t(rows) * cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) want[std::size_t(i) * cols + j] = a[i] + b[j];  // one fp32 add

  const float* d_a = c.to_device("a", a);
  const float* d_b = c.to_device("b", b);
  float* d_out = c.output<float>("out", want.size());
  launch_outer_sum(d_a, d_b, d_out, rows, cols);
  if (c.launched("launch_outer_sum")) c.expect_equal("out", c.to_host(d_out, want.size()), want);
  return c.finish();
}
