// What a load that hits L1 costs a lone warp: one thread follows a chain of dependent
// loads around a few 128-byte lines (1 KiB: they stay in L1 after the first lap), 64,
// 256 and 1,024 hops, so the slope between the launches is the L1 hit's latency
// (the kernel time model's l1_hit_latency_clk: a thread walking its own row re-reads
// each sector from L1, docs/validation/h200-short-kernels.md). Beside it the same
// chase over 64 MiB of lines a page apart (L2 misses: DRAM) as a check of the method.
// Plain CUDA; bash tests/cuda/run_l1_latency_gpu.sh times it with ncu.
#include "probe_check.cuh"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void chase(const unsigned* next, unsigned* out, int hops) {
  unsigned at = 0;
  for (int h = 0; h < hops; ++h) at = next[at];
  out[0] = at;
}

namespace {

// A cycle through `lines` lines `stride` words apart.
std::vector<unsigned> ring(unsigned lines, unsigned stride) {
  std::vector<unsigned> next(std::size_t(lines) * stride, 0);
  for (unsigned i = 0; i < lines; ++i) next[std::size_t(i) * stride] = ((i + 1) % lines) * stride;
  return next;
}

}  // namespace

int main() {
  const std::vector<unsigned> small = ring(8, 32);        // 8 lines of 128 bytes
  const std::vector<unsigned> large = ring(32, 1 << 19);  // 32 lines 2 MiB apart
  unsigned *d_small, *d_large, *out;
  cudaMalloc(&d_small, small.size() * sizeof(unsigned));
  cudaMalloc(&d_large, large.size() * sizeof(unsigned));
  cudaMalloc(&out, sizeof(unsigned));
  cudaMemcpy(d_small, small.data(), small.size() * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemcpy(d_large, large.data(), large.size() * sizeof(unsigned), cudaMemcpyHostToDevice);
  for (int hops : {64, 256, 1024}) chase<<<1, 1>>>(d_small, out, hops);
  check("l1 chase");
  for (int hops : {1, 32}) chase<<<1, 1>>>(d_large, out, hops);
  check("dram chase");
  unsigned at = 0;
  cudaMemcpy(&at, out, sizeof at, cudaMemcpyDeviceToHost);
  std::printf("l1_latency_probe: 5 launches, last hop at %u\n", at);
  return 0;
}
