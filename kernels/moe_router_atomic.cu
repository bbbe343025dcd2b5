// MoE router, atomics: a thread per token gates it and claims a slot in each chosen
// expert with atomicAdd(&count[e], 1); one thread scans the E counts into offsets;
// a thread per choice scatters it to offsets[e] + slot. Three short launches, but
// all T*k claims land on E counters: same-address atomics serialise at the L2 slice
// owning each counter (simt run shows the contention term). The slot a choice gets
// is the order its atomic landed in, which a GPU does not fix: the driver sorts
// each expert's run of `order` before returning it (see moe_router_common.cuh).
#include "kernels/harness.hpp"
#include "kernels/moe_router_common.cuh"
#include <cuda_runtime.h>

__global__ void moe_gate_and_claim(const float* logits, int tokens, int E, int k, int* expert, float* gate, int* slot,
                                   int* count) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= tokens) return;
  moe_router::gate_token(logits + size_t(t) * E, E, k, expert + size_t(t) * k, gate + size_t(t) * k);
  for (int j = 0; j < k; ++j) slot[size_t(t) * k + j] = atomicAdd(&count[expert[size_t(t) * k + j]], 1);
}

// One thread: E is at most 256, a serial exclusive scan is the whole job.
__global__ void moe_scan_counts(const int* count, int E, int* offsets) {
  int sum = 0;
  for (int e = 0; e < E; ++e) {
    offsets[e] = sum;
    sum += count[e];
  }
  offsets[E] = sum;
}

__global__ void moe_scatter_by_slot(const int* expert, const int* slot, const int* offsets, int n, int* order) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) order[offsets[expert[i]] + slot[i]] = i;
}

namespace {
constexpr int kThreads = 256;

void launch(const moe_router::Buffers& b, const moe_router::Problem& pr) {
  const int n = pr.choices();
  int *slot, *count;
  cudaMalloc(&slot, n * sizeof(int));
  cudaMalloc(&count, pr.experts * sizeof(int));
  cudaMemset(count, 0, pr.experts * sizeof(int));
  moe_gate_and_claim<<<(pr.tokens + kThreads - 1) / kThreads, kThreads>>>(b.logits, pr.tokens, pr.experts, pr.k,
                                                                         b.expert, b.gate, slot, count);
  moe_scan_counts<<<1, 1>>>(count, pr.experts, b.offsets);
  moe_scatter_by_slot<<<(n + kThreads - 1) / kThreads, kThreads>>>(b.expert, slot, b.offsets, n, b.order);
  cudaFree(slot);
  cudaFree(count);
}

simt::kernels::Outputs run(const simt::kernels::Params& p) {
  return moe_router::run(p, launch, /*canonical_order=*/true);
}

simt::kernels::Registration reg({"moe_router_atomic",
                                 "MoE top-k router: gate per token, slots claimed with atomicAdd per expert, scan, scatter",
                                 moe_router::params(), run, moe_router::check});
}  // namespace
