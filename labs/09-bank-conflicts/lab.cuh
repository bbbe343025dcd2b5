// Lab 09 harness (labs/09-bank-conflicts/README.md): the matrix, the CPU reference
// and the comparison. Your file includes it and defines launch_transpose.
#pragma once
#include "simtlab_lab.cuh"

// out = in^T: `in` is rows x cols, `out` is cols x rows, both row-major, so
// out[c * rows + r] = in[r * cols + c].
void launch_transpose(const float* in, float* out, int rows, int cols);

int main(int argc, char** argv) {
  lab::Case c(argc, argv);
  const int rows = int(c.size("rows", 96));
  const int cols = int(c.size("cols", 64));
  const std::vector<float> in = lab::Random(9).floats(std::size_t(rows) * cols, -4.0f, 4.0f);
  std::vector<float> want(in.size());
  for (int r = 0; r < rows; ++r)
    for (int col = 0; col < cols; ++col) want[std::size_t(col) * rows + r] = in[std::size_t(r) * cols + col];

  const float* d_in = c.to_device("in", in);
  float* d_out = c.output<float>("out", in.size());
  launch_transpose(d_in, d_out, rows, cols);
  if (c.launched("launch_transpose")) c.expect_equal("out", c.to_host(d_out, in.size()), want);
  return c.finish();
}
