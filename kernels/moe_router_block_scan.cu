// MoE router, deterministic counting sort without global atomics:
//   1. moe_gate             a thread per token: experts and gates only
//   2. moe_tile_histogram   a block per tile of 256 choices counts its experts in
//                           shared memory (shared atomics: a count is exact whatever
//                           their order) and writes them expert-major: count[e][tile]
//   3. moe_scan_tiles       one block scans the E x tiles counts; expert-major order
//                           makes the scan's result each (expert, tile) run's start
//   4. moe_stable_scatter   each choice's place = its (expert, tile) start + the
//                           same-expert choices before it in its tile: within its warp
//                           from __match_any_sync (the lanes holding the same expert)
//                           and a popcount of the lower ones, across warps from per-
//                           warp counts in shared memory
// Against moe_router_atomic: no same-address global atomics, and the order within
// an expert is token order by construction (stable), the same on every run.
#include "kernels/harness.hpp"
#include "kernels/moe_router_common.cuh"
#include <cuda_runtime.h>

namespace {
constexpr int kTile = 256, kWarps = kTile / 32, kScanThreads = 1024;
}

__global__ void moe_gate(const float* logits, int tokens, int E, int k, int* expert, float* gate) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < tokens) moe_router::gate_token(logits + size_t(t) * E, E, k, expert + size_t(t) * k, gate + size_t(t) * k);
}

__global__ void moe_tile_histogram(const int* expert, int n, int E, int* tile_count) {
  __shared__ int hist[moe_router::kMaxExperts];
  for (int e = threadIdx.x; e < E; e += blockDim.x) hist[e] = 0;
  __syncthreads();
  const int i = blockIdx.x * kTile + threadIdx.x;
  if (i < n) atomicAdd(&hist[expert[i]], 1);
  __syncthreads();
  for (int e = threadIdx.x; e < E; e += blockDim.x) tile_count[size_t(e) * gridDim.x + blockIdx.x] = hist[e];
}

// Exclusive scan of `len` counts in place by one block: each thread sums a
// contiguous chunk, the chunk sums are scanned serially by thread 0 (at most 1024
// of them), then each thread rewrites its chunk. Also writes offsets[e] = the start
// of (e, tile 0) and offsets[E] = the total.
__global__ void moe_scan_tiles(int* tile_count, int E, int tiles, int* offsets) {
  __shared__ int chunk_start[kScanThreads];
  const int len = E * tiles, per = (len + blockDim.x - 1) / blockDim.x;
  const int lo = threadIdx.x * per, hi = min(lo + per, len);
  int sum = 0;
  for (int i = lo; i < hi; ++i) sum += tile_count[i];
  chunk_start[threadIdx.x] = sum;
  __syncthreads();
  if (threadIdx.x == 0) {
    int running = 0;
    for (int c = 0; c < blockDim.x; ++c) {
      const int s = chunk_start[c];
      chunk_start[c] = running;
      running += s;
    }
    offsets[E] = running;
  }
  __syncthreads();
  int running = chunk_start[threadIdx.x];
  for (int i = lo; i < hi; ++i) {
    const int c = tile_count[i];
    tile_count[i] = running;
    if (i % tiles == 0) offsets[i / tiles] = running;
    running += c;
  }
}

__global__ void moe_stable_scatter(const int* expert, int n, int E, const int* tile_start, int* order) {
  __shared__ int warp_count[kWarps][moe_router::kMaxExperts];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int i = threadIdx.x; i < kWarps * E; i += blockDim.x) warp_count[i / E][i % E] = 0;
  __syncthreads();
  const int i = blockIdx.x * kTile + threadIdx.x;
  const unsigned active = __ballot_sync(0xffffffffu, i < n);
  int e = -1, rank_in_warp = 0;
  if (i < n) {
    e = expert[i];
    const unsigned peers = __match_any_sync(active, e);
    rank_in_warp = __popc(peers & ((1u << lane) - 1u));
    if (rank_in_warp == 0) warp_count[warp][e] = __popc(peers);  // the lowest peer speaks for them
  }
  __syncthreads();
  if (i < n) {
    int before = 0;
    for (int w = 0; w < warp; ++w) before += warp_count[w][e];
    order[tile_start[size_t(e) * gridDim.x + blockIdx.x] + before + rank_in_warp] = i;
  }
}

namespace {
void launch(const moe_router::Buffers& b, const moe_router::Problem& pr) {
  const int n = pr.choices(), tiles = (n + kTile - 1) / kTile;
  int* tile_count;
  cudaMalloc(&tile_count, size_t(pr.experts) * tiles * sizeof(int));
  moe_gate<<<(pr.tokens + kTile - 1) / kTile, kTile>>>(b.logits, pr.tokens, pr.experts, pr.k, b.expert, b.gate);
  moe_tile_histogram<<<tiles, kTile>>>(b.expert, n, pr.experts, tile_count);
  moe_scan_tiles<<<1, kScanThreads>>>(tile_count, pr.experts, tiles, b.offsets);
  moe_stable_scatter<<<tiles, kTile>>>(b.expert, n, pr.experts, tile_count, b.order);
  cudaFree(tile_count);
}

simt::kernels::Outputs run(const simt::kernels::Params& p) { return moe_router::run(p, launch); }

simt::kernels::Registration reg({"moe_router_block_scan",
                                 "MoE top-k router: tile histograms in shared memory, one scan, a stable scatter "
                                 "(__match_any_sync ranks): deterministic, no global atomics",
                                 moe_router::params(), run, moe_router::check});
}  // namespace
