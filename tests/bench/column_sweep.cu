// A long loop without barriers in which every lane of a warp reads the same rows: the
// shape of a naive autoregressive softmax backward (a thread per column, every row at
// or below it summed in turn; llm.c's attention_backward kernel 1 at its default size
// is 25 million loads a thread). Plain CUDA, run on the simulator as a sampled launch
// whose uncounted blocks run the plain twin (tests/bench/column_sweep.sh times it with
// the twin's lanes taking turns and without: SIMT_OPTIONS plain_pace).
// Usage: column_sweep [--heads H] [--rows T] [--columns C]   (C <= T: the columns computed)
#include <cuda_runtime.h>

#include "sweep_data.cuh"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

// p and g are (heads, T, T); out[h][r][c] = sum over k <= r of p[h][r][k] (δ(k,c) - p[h][r][c]) g[h][r][k]
// for r >= c. A block of 32 columns of head blockIdx.y: each thread sweeps the head's
// rows from its own column down, and the block's lanes read the same rows.
__global__ void column_sweep(const float* p, const float* g, float* out, int T, int columns) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x, h = blockIdx.y;
  if (c >= columns) return;
  for (int r = c; r < T; ++r) {
    const float* pr = p + (size_t(h) * T + r) * T;
    const float* gr = g + (size_t(h) * T + r) * T;
    float acc = 0.0f;
    for (int k = 0; k <= r; ++k) acc += pr[k] * ((k == c ? 1.0f : 0.0f) - pr[c]) * gr[k];
    out[(size_t(h) * T + r) * T + c] = acc;
  }
}

int main(int argc, char** argv) {
  int heads = 16, T = 1024, columns = 1024;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--heads")) heads = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--rows")) T = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--columns")) columns = std::atoi(argv[i + 1]);
    else {
      std::fprintf(stderr, "usage: column_sweep [--heads H] [--rows T] [--columns C]\n");
      return 2;
    }
  }
  if (heads < 1 || T < 1 || columns < 1 || columns > T) {
    std::fprintf(stderr, "column_sweep: need heads, rows >= 1 and 1 <= columns <= rows\n");
    return 2;
  }
  const size_t n = size_t(heads) * T * T;
  const SweepArrays d = sweep_arrays(n);
  const auto start = std::chrono::steady_clock::now();
  column_sweep<<<dim3((columns + 31) / 32, heads), 32>>>(d.a, d.b, d.out, T, columns);
  cudaDeviceSynchronize();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const unsigned long long hash = sweep_output_hash(d.out, n);
  std::printf("heads %d rows %d columns %d: launch %.2f s, output hash %016llx\n", heads, T, columns, seconds, hash);
  return 0;
}
