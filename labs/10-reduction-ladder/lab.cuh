// Lab 10 harness (labs/10-reduction-ladder/README.md): the input, the CPU reference and
// the comparison. Your file includes it and defines launch_block_sum.
#pragma once
#include "simtlab_lab.cuh"

constexpr int kThreads = 256;  // threads per block: each block sums 256 consecutive inputs

// out[b] = in[256 b] + in[256 b + 1] + ... + in[256 b + 255] (elements past n count as 0),
// for each of the blocks_for(n, 256) blocks.
void launch_block_sum(const float* in, float* out, int n);

int main(int argc, char** argv) {
  lab::Case c(argc, argv);
  const int n = int(c.size("n", 5000));
  const int blocks = int(lab::blocks_for(n, kThreads));
  const std::vector<float> in = lab::Random(10).floats(n, -1.0f, 1.0f);
  std::vector<float> want(blocks);
  for (int b = 0; b < blocks; ++b) {
    double s = 0;  // the exact sum, near enough: 256 terms in double
    for (int i = b * kThreads; i < n && i < (b + 1) * kThreads; ++i) s += in[i];
    want[b] = float(s);
  }

  const float* d_in = c.to_device("in", in);
  float* d_out = c.output<float>("out", blocks);
  launch_block_sum(d_in, d_out, n);
  // The kernel adds in a tree, not left to right, so it is compared within a bound: a
  // tree of depth d over m terms is off by at most d * 2^-24 * sum|x| (plus the final
  // rounding); here d = 8, m = 256 and |x| <= 1: 8 * 5.96e-8 * 256 = 1.22e-4. Any order
  // of pairwise additions 8 deep stays inside 2e-4.
  if (c.launched("launch_block_sum")) c.expect_near("out", c.to_host(d_out, blocks), want, 2e-4, 0);
  return c.finish();
}
