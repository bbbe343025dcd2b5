// Lab 05 harness (labs/05-dot/README.md): the sizes, the inputs, the CPU reference
// and the comparison. Your file includes it and defines launch_dot.
#pragma once
#include "simtlab_lab.cuh"

// The block size the harness counts on: partial has one float per block of kDotThreads.
constexpr int kDotThreads = 256;

// partial[b] = the sum of a[i] * b[i] over block b's elements,
// i = b * kDotThreads .. b * kDotThreads + kDotThreads - 1 (and i < n).
// The harness adds the partial sums on the host.
void launch_dot(const float* a, const float* b, float* partial, int n);

int main(int argc, char** argv) {
  lab::Case c(argc, argv);
  const int n = int(c.size("n", 1000));
  const int blocks = int(lab::blocks_for(n, kDotThreads));
  const std::vector<float> a = lab::Random(5).floats(n, -1.0f, 1.0f);
  const std::vector<float> b = lab::Random(6).floats(n, -1.0f, 1.0f);
  // The reference in double; the kernel adds in fp32 in a tree, another order. Its
  // error is at most about (log2(256) + 1) * 2^-24 * sum |a[i] b[i]| for the tree and
  // the product, and the host's double sum of the partials adds nothing that matters:
  // ~5.4e-7 * sum |a[i] b[i]|. The tolerance, 1e-5 * sum |a[i] b[i]|, leaves a margin of
  // 18 while any lost or doubled element (|a[i] b[i]| ~ 0.25 on average, so 1/n of the
  // sum) is far outside it. Relative to the dot product itself would not do: with
  // random signs it can be close to 0.
  double dot = 0, magnitude = 0;
  for (int i = 0; i < n; ++i) {
    dot += double(a[i]) * double(b[i]);
    magnitude += std::fabs(double(a[i]) * double(b[i]));
  }

  const float* d_a = c.to_device("a", a);
  const float* d_b = c.to_device("b", b);
  float* d_partial = c.output<float>("partial", blocks);  // NaN until written
  launch_dot(d_a, d_b, d_partial, n);
  if (c.launched("launch_dot")) {
    const std::vector<float> partial = c.to_host(d_partial, blocks);
    double got = 0;
    for (float p : partial) got += p;  // a block that never wrote leaves NaN: no match
    c.expect_near("dot", {float(got)}, {float(dot)}, 1e-5 * magnitude, 0);
  }
  return c.finish();
}
