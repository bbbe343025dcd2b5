// Lab 04 harness (labs/04-pooling/README.md): the sizes, the input, the CPU reference
// and the comparison. Your file includes it and defines launch_pool3.
#pragma once
#include "simtlab_lab.cuh"

// out[i] = a[i-2] + a[i-1] + a[i] for every i < n, where a[-1] and a[-2] count as 0:
// a sliding window of 3 that ends at i.
void launch_pool3(const float* a, float* out, int n);

int main(int argc, char** argv) {
  lab::Case c(argc, argv);
  const int n = int(c.size("n", 1000));
  const std::vector<float> a = lab::Random(4).floats(n, -4.0f, 4.0f);
  std::vector<float> want(n);
  // The same fp32 additions in the same order as the kernel ((a[i-2] + a[i-1]) + a[i],
  // with 0 for the missing ones), so the outputs match bit for bit.
  for (int i = 0; i < n; ++i) {
    const float x2 = i >= 2 ? a[i - 2] : 0.0f, x1 = i >= 1 ? a[i - 1] : 0.0f;
    want[i] = x2 + x1 + a[i];
  }

  const float* d_a = c.to_device("a", a);
  float* d_out = c.output<float>("out", n);
  launch_pool3(d_a, d_out, n);
  if (c.launched("launch_pool3")) c.expect_equal("out", c.to_host(d_out, n), want);
  return c.finish();
}
