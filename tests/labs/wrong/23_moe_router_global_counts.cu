// Lab 23 with each tile's counts kept by global atomicAdd instead of a shared
// histogram: the same (deterministic) counts and a right order, but every choice is
// a global atomic (a RED: its result is unused).
#include "lab.cuh"

constexpr int kTile = 256, kWarps = kTile / 32, kScanThreads = 1024, kMaxExperts = 256;

__global__ void tile_histogram(const int* expert, int n, int experts, int* count) {
  const int i = blockIdx.x * kTile + threadIdx.x;
  if (i < n) atomicAdd(&count[expert[i] * gridDim.x + blockIdx.x], 1);  // global: a RED per lane
}

// Each thread sums a contiguous chunk; thread 0 scans the chunk sums; each thread
// rewrites its chunk as running starts.
__global__ void scan_tiles(int* count, int experts, int tiles, int* offsets) {
  __shared__ int chunk_start[kScanThreads];
  const int len = experts * tiles, per = (len + blockDim.x - 1) / blockDim.x;
  const int lo = threadIdx.x * per, hi = min(lo + per, len);
  int sum = 0;
  for (int i = lo; i < hi; ++i) sum += count[i];
  chunk_start[threadIdx.x] = sum;
  __syncthreads();
  if (threadIdx.x == 0) {
    int running = 0;
    for (int c = 0; c < blockDim.x; ++c) {
      const int s = chunk_start[c];
      chunk_start[c] = running;
      running += s;
    }
    offsets[experts] = running;
  }
  __syncthreads();
  int running = chunk_start[threadIdx.x];
  for (int i = lo; i < hi; ++i) {
    const int c = count[i];
    count[i] = running;
    if (i % tiles == 0) offsets[i / tiles] = running;
    running += c;
  }
}

__global__ void stable_scatter(const int* expert, int n, int experts, const int* start, int* order) {
  __shared__ int warp_count[kWarps][kMaxExperts];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int i = threadIdx.x; i < kWarps * experts; i += blockDim.x) warp_count[i / experts][i % experts] = 0;
  __syncthreads();
  const int i = blockIdx.x * kTile + threadIdx.x;
  const unsigned active = __ballot_sync(0xffffffffu, i < n);
  int e = 0, rank = 0;
  if (i < n) {
    e = expert[i];
    const unsigned peers = __match_any_sync(active, e);
    rank = __popc(peers & ((1u << lane) - 1u));
    if (rank == 0) warp_count[warp][e] = __popc(peers);
  }
  __syncthreads();
  if (i < n) {
    int before = 0;
    for (int w = 0; w < warp; ++w) before += warp_count[w][e];
    order[start[e * gridDim.x + blockIdx.x] + before + rank] = i;
  }
}

void launch_group_by_expert(const int* expert, int n, int experts, int* order, int* offsets) {
  const int tiles = (n + kTile - 1) / kTile;
  int* count;
  cudaMalloc(&count, size_t(experts) * tiles * sizeof(int));
  cudaMemset(count, 0, size_t(experts) * tiles * sizeof(int));
  tile_histogram<<<tiles, kTile>>>(expert, n, experts, count);
  scan_tiles<<<1, kScanThreads>>>(count, experts, tiles, offsets);
  stable_scatter<<<tiles, kTile>>>(expert, n, experts, count, order);
  cudaFree(count);
}
