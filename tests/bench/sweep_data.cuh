// What the sweep benches share (column_sweep.cu, every_head_sweep.cu): two device
// arrays of the same pseudo-random rows and a zeroed output, and a hash of the output's
// bits to tell that every run computed the same thing.
#pragma once
#include <cuda_runtime.h>

#include <cstring>
#include <vector>

struct SweepArrays {
  float* a;
  float* b;
  float* out;
};

// n floats in [0, 1) from a fixed LCG, copied to both inputs; the output zeroed.
inline SweepArrays sweep_arrays(size_t n) {
  std::vector<float> h(n);
  unsigned s = 12345;
  for (float& x : h) x = float((s = s * 1664525u + 1013904223u) >> 8) * 0x1p-24f;
  SweepArrays d;
  cudaMalloc(&d.a, n * sizeof(float));
  cudaMalloc(&d.b, n * sizeof(float));
  cudaMalloc(&d.out, n * sizeof(float));
  cudaMemcpy(d.a, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d.b, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(d.out, 0, n * sizeof(float));
  return d;
}

// FNV-1a of the n output floats' bits.
inline unsigned long long sweep_output_hash(const float* out, size_t n) {
  std::vector<float> h(n);
  cudaMemcpy(h.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost);
  unsigned long long hash = 1469598103934665603ull;
  for (float x : h) {
    unsigned bits;
    std::memcpy(&bits, &x, 4);
    hash = (hash ^ bits) * 1099511628211ull;
  }
  return hash;
}
