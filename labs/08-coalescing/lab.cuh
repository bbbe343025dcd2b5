// Lab 08 harness (labs/08-coalescing/README.md): the matrix, the CPU reference and
// the comparison. Your file includes it and defines launch_scale.
#pragma once
#include "simtlab_lab.cuh"

// out[r][c] = alpha * in[r][c] for a rows x cols matrix stored row-major: element
// (r, c) lives at r * cols + c, so consecutive columns are consecutive floats.
void launch_scale(const float* in, float* out, int rows, int cols, float alpha);

int main(int argc, char** argv) {
  lab::Case c(argc, argv);
  const int rows = int(c.size("rows", 64));
  const int cols = int(c.size("cols", 96));
  const float alpha = 2.5f;
  const std::vector<float> in = lab::Random(8).floats(std::size_t(rows) * cols, -4.0f, 4.0f);
  std::vector<float> want(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) want[i] = alpha * in[i];

  const float* d_in = c.to_device("in", in);
  float* d_out = c.output<float>("out", in.size());
  launch_scale(d_in, d_out, rows, cols, alpha);
  if (c.launched("launch_scale")) c.expect_equal("out", c.to_host(d_out, in.size()), want);
  return c.finish();
}
