// The loop of llm.c's attention_backward kernel 1 (its naive softmax backward): a
// thread per column t3, sweeping every batch and head, each row t >= t3, each element
// of the row up to t — no barrier, lanes of a warp looping different numbers of times
// (a divergent warp in every row). Plain CUDA, for timing the simulator on that shape:
// tests/bench/every_head_sweep.sh prints the cost of an iteration counted and uncounted.
// Usage: every_head_sweep [--heads H] [--rows T] [--block B] [--grid-rows R]
//   (R rows of blocks, each computing the same result, as llm.c's grid of B·NH rows does)
#include <cuda_runtime.h>

#include "sweep_data.cuh"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void every_head_sweep(float* dpreatt, const float* datt, const float* att, int heads, int T) {
  const int t3 = blockIdx.x * blockDim.x + threadIdx.x;
  if (t3 >= T) return;
  const float scale = 1.0f / sqrtf(64.0f);
  for (int h = 0; h < heads; h++)
    for (int t = t3; t < T; t++) {
      const float* att_row = att + (size_t(h) * T + t) * T;
      const float* datt_row = datt + (size_t(h) * T + t) * T;
      float accum = 0.0f;
      for (int t2 = 0; t2 <= t; t2++) {
        const float indicator = t2 == t3 ? 1.0f : 0.0f;
        accum += scale * att_row[t2] * (indicator - att_row[t3]) * datt_row[t2];
      }
      dpreatt[(size_t(h) * T + t) * T + t3] = accum;
    }
}

int main(int argc, char** argv) {
  int heads = 4, T = 256, block = 64, grid_rows = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--heads")) heads = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--rows")) T = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--block")) block = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--grid-rows")) grid_rows = std::atoi(argv[i + 1]);
    else {
      std::fprintf(stderr, "usage: every_head_sweep [--heads H] [--rows T] [--block B] [--grid-rows R]\n");
      return 2;
    }
  }
  if (heads < 1 || T < 1 || block < 1 || block > 1024 || grid_rows < 1) {
    std::fprintf(stderr, "every_head_sweep: need heads, rows, grid rows >= 1 and 1 <= block <= 1024\n");
    return 2;
  }
  const size_t n = size_t(heads) * T * T;
  const SweepArrays d = sweep_arrays(n);
  const auto start = std::chrono::steady_clock::now();
  every_head_sweep<<<dim3((T + block - 1) / block, grid_rows), block>>>(d.out, d.b, d.a, heads, T);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::fprintf(stderr, "every_head_sweep: the launch failed: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const unsigned long long hash = sweep_output_hash(d.out, n);
  double iterations = 0;  // inner-loop iterations of the whole grid
  for (int t3 = 0; t3 < T; t3++) iterations += (double(T) * (T + 1) - double(t3) * (t3 + 1)) / 2;
  iterations *= double(heads) * grid_rows;
  std::printf("heads %d rows %d block %d grid rows %d: launch %.2f s, %.4g iterations, output hash %016llx\n", heads,
              T, block, grid_rows, seconds, iterations, hash);
  return 0;
}
