// Lab 23 — MoE routing: group tokens by expert. Read labs/23-moe-router/README.md
// (simt lab show moe-router). Check your work: simt lab check moe-router router.cu
//
// This version is the first one everybody writes: each choice claims the next slot
// of its expert with a global atomicAdd, one thread scans the counts, and each
// choice is written to offsets[e] + slot. It is short and fast enough — and its
// order within an expert is whatever order the atomics landed in, which changes
// from run to run on a GPU. Make it deterministic: token order within each expert,
// no global atomics.
#include "lab.cuh"

constexpr int kThreads = 256;

__global__ void claim_slots(const int* expert, int n, int* count, int* slot) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  // TODO 1: no global atomics. Count each tile's experts in shared memory instead
  //         (one block per tile of 256 choices), and write the counts out.
  if (i < n) slot[i] = atomicAdd(&count[expert[i]], 1);
}

__global__ void scan_counts(const int* count, int experts, int* offsets) {
  // TODO 2: scan the per-tile counts so each (expert, tile) knows where its run
  //         starts: expert-major order (all tiles of expert 0, then expert 1...).
  int sum = 0;
  for (int e = 0; e < experts; ++e) {
    offsets[e] = sum;
    sum += count[e];
  }
  offsets[experts] = sum;
}

__global__ void scatter(const int* expert, const int* slot, const int* offsets, int n, int* order) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  // TODO 3: a choice's place is its (expert, tile) start plus the number of earlier
  //         choices of the same expert in its tile: its rank. Within a warp,
  //         __match_any_sync gives the lanes holding the same expert; across the
  //         warps of the block, count in shared memory.
  if (i < n) order[offsets[expert[i]] + slot[i]] = i;
}

void launch_group_by_expert(const int* expert, int n, int experts, int* order, int* offsets) {
  int *count, *slot;
  cudaMalloc(&count, experts * sizeof(int));
  cudaMalloc(&slot, n * sizeof(int));
  cudaMemset(count, 0, experts * sizeof(int));
  const int blocks = (n + kThreads - 1) / kThreads;
  claim_slots<<<blocks, kThreads>>>(expert, n, count, slot);
  scan_counts<<<1, 1>>>(count, experts, offsets);
  scatter<<<blocks, kThreads>>>(expert, slot, offsets, n, order);
  cudaFree(count);
  cudaFree(slot);
}
