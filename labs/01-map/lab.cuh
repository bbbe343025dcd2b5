// Lab 01 harness (labs/01-map/README.md): the sizes, the input, the CPU reference
// and the comparison. Your file includes it and defines launch_square.
#pragma once
#include "simtlab_lab.cuh"

// out[i] = a[i] * a[i] for every i < n, with one thread per element.
void launch_square(const float* a, float* out, int n);

int main(int argc, char** argv) {
  lab::Case c(argc, argv);
  const int n = int(c.size("n", 1000));
  const std::vector<float> a = lab::Random(1).floats(n, -4.0f, 4.0f);
  std::vector<float> want(n);
  for (int i = 0; i < n; ++i) want[i] = a[i] * a[i];

  const float* d_a = c.to_device("a", a);
  float* d_out = c.output<float>("out", n);
  launch_square(d_a, d_out, n);
  if (c.launched("launch_square")) c.expect_equal("out", c.to_host(d_out, n), want);
  return c.finish();
}
