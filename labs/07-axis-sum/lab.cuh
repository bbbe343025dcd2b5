// Lab 07 harness (labs/07-axis-sum/README.md): the sizes, the input, the CPU reference
// and the comparison. Your file includes it and defines launch_column_sum.
#pragma once
#include "simtlab_lab.cuh"

// out[c] = a[0][c] + a[1][c] + ... + a[rows-1][c] for a rows x cols matrix stored row
// by row (a[r][c] at index r * cols + c): the sum over axis 0, one thread per column.
void launch_column_sum(const float* a, float* out, int rows, int cols);

int main(int argc, char** argv) {
  lab::Case c(argc, argv);
  const int rows = int(c.size("rows", 64));
  const int cols = int(c.size("cols", 256));
  const std::vector<float> a = lab::Random(10).floats(std::size_t(rows) * cols, -4.0f, 4.0f);
  // One thread adds its column from row 0 down, in fp32: the reference adds in the same
  // order, so the outputs match bit for bit.
  std::vector<float> want(cols, 0.0f);
  for (int r = 0; r < rows; ++r)
    for (int col = 0; col < cols; ++col) want[col] += a[std::size_t(r) * cols + col];

  const float* d_a = c.to_device("a", a);
  float* d_out = c.output<float>("out", cols);
  launch_column_sum(d_a, d_out, rows, cols);
  if (c.launched("launch_column_sum")) c.expect_equal("out", c.to_host(d_out, cols), want);
  return c.finish();
}
