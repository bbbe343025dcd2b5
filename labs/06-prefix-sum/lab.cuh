// Lab 06 harness (labs/06-prefix-sum/README.md): the sizes, the input, the CPU
// reference and the comparison. Your file includes it and defines launch_scan.
#pragma once
#include "simtlab_lab.cuh"

// The segment length: each block of kScanThreads threads scans its own segment.
constexpr int kScanThreads = 256;

// For every segment s (elements s * kScanThreads .. s * kScanThreads + kScanThreads - 1,
// the last one cut at n): out[i] = a[first] + a[first + 1] + ... + a[i], first being the
// segment's first element. An inclusive scan, restarted at every segment.
void launch_scan(const int* a, int* out, int n);

int main(int argc, char** argv) {
  lab::Case c(argc, argv);
  const int n = int(c.size("n", 1000));
  const std::vector<int> a = lab::Random(9).ints(n, -100, 100);
  std::vector<int> want(n);
  for (int i = 0; i < n; ++i) want[i] = (i % kScanThreads == 0 ? 0 : want[i - 1]) + a[i];

  const int* d_a = c.to_device("a", a);
  int* d_out = c.output<int>("out", n);  // 0xFFFFFFFF = -1 until written
  launch_scan(d_a, d_out, n);
  // Integer sums do not depend on the order: the outputs must be equal.
  if (c.launched("launch_scan")) c.expect_equal("out", c.to_host(d_out, n), want);
  return c.finish();
}
