// MoE router, the library way: gate (a thread per token), then CUB's device-wide
// algorithms, each with the two-call temp-storage pattern (size query, allocate,
// run):
//   cub::DeviceHistogram::HistogramEven   tokens per expert (E bins over [0, E))
//   cub::DeviceScan::InclusiveSum         offsets[1..E] (offsets[0] = 0 by memset)
//   cub::DeviceRadixSort::SortPairs       choice indices sorted by expert; only the
//                                         bits E needs (ceil(log2 E)) are sorted, and
//                                         LSD radix sort is stable: token order within
//                                         an expert, as the counting sort gives
// More launches than moe_router_block_scan (CUB's histogram, scan and one sort pass
// per digit), each general rather than fitted to this problem.
#include "kernels/harness.hpp"
#include "kernels/moe_router_common.cuh"
#include <cub/cub.cuh>
#include <cuda_runtime.h>

__global__ void moe_gate_and_index(const float* logits, int tokens, int E, int k, int* expert, float* gate,
                                   int* index) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= tokens) return;
  moe_router::gate_token(logits + size_t(t) * E, E, k, expert + size_t(t) * k, gate + size_t(t) * k);
  for (int j = 0; j < k; ++j) index[size_t(t) * k + j] = t * k + j;
}

namespace {
constexpr int kThreads = 256;

int bits_for(int experts) {
  int bits = 0;
  while ((1 << bits) < experts) ++bits;
  return bits > 0 ? bits : 1;
}

// Runs one CUB call twice: first to size its temporary storage, then for real.
template <class Call>
void with_temp_storage(Call call) {
  std::size_t bytes = 0;
  call(nullptr, bytes);
  void* temp = nullptr;
  cudaMalloc(&temp, bytes);
  call(temp, bytes);
  cudaFree(temp);
}

void launch(const moe_router::Buffers& b, const moe_router::Problem& pr) {
  const int n = pr.choices(), E = pr.experts;
  int *index, *sorted_expert;
  cudaMalloc(&index, n * sizeof(int));
  cudaMalloc(&sorted_expert, n * sizeof(int));
  moe_gate_and_index<<<(pr.tokens + kThreads - 1) / kThreads, kThreads>>>(b.logits, pr.tokens, E, pr.k, b.expert,
                                                                          b.gate, index);
  int* counts;
  cudaMalloc(&counts, E * sizeof(int));
  with_temp_storage([&](void* temp, std::size_t& bytes) {
    cub::DeviceHistogram::HistogramEven(temp, bytes, b.expert, counts, E + 1, 0, E, n);
  });
  cudaMemset(b.offsets, 0, sizeof(int));
  with_temp_storage(
      [&](void* temp, std::size_t& bytes) { cub::DeviceScan::InclusiveSum(temp, bytes, counts, b.offsets + 1, E); });
  with_temp_storage([&](void* temp, std::size_t& bytes) {
    cub::DeviceRadixSort::SortPairs(temp, bytes, b.expert, sorted_expert, index, b.order, n, 0, bits_for(E));
  });
  cudaFree(counts);
  cudaFree(index);
  cudaFree(sorted_expert);
}

simt::kernels::Outputs run(const simt::kernels::Params& p) { return moe_router::run(p, launch); }

simt::kernels::Registration reg({"moe_router_cub",
                                 "MoE top-k router: CUB DeviceHistogram, DeviceScan and DeviceRadixSort::SortPairs",
                                 moe_router::params(), run, moe_router::check});
}  // namespace
