// cooperative_groups: cg::reduce combines in CUDA 13's order (a butterfly over the
// tile), so float sums are bit-identical with the GPU's; tiles' shuffles are the
// warp's shuffles (issue 10).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

// Large and small magnitudes: the float sum depends on the order of the additions.
__host__ __device__ float value(int i) { return (i % 5 == 0 ? 16777216.0f : 1.0f) * (1.0f + (i % 13) / 8.0f); }

template <int N> __global__ void tile_sum(float* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<N> tile = cg::tiled_partition<N>(block);
  float s = cg::reduce(tile, value(block.thread_rank()), cg::plus<float>());
  if (tile.thread_rank() == 0) out[tile.meta_group_rank()] = s;
}

// The butterfly the GPU runs: at mask m, lane l adds lane l^m's partial sum.
template <int N> float butterfly(int first) {
  float v[N];
  for (int l = 0; l < N; ++l) v[l] = value(first + l);
  for (int m = N / 2; m > 0; m /= 2) {
    float next[N];
    for (int l = 0; l < N; ++l) next[l] = v[l] + v[l ^ m];
    memcpy(v, next, sizeof v);
  }
  return v[0];
}

template <int N> void check(float* d) {
  tile_sum<N><<<1, 64>>>(d);
  float h[64 / N];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  bool same = true, seq_differs = false;
  for (int t = 0; t < 64 / N; ++t) {
    float seq = 0.0f;
    for (int l = 0; l < N; ++l) seq += value(t * N + l);
    same = same && h[t] == butterfly<N>(t * N);
    seq_differs = seq_differs || seq != h[t];
  }
  printf("tile %d: butterfly order %s; sequential order %s\n", N, same ? "matches" : "DIFFERS",
         seq_differs ? "differs" : "matches too");
}

// A block sum as llm.c's layernorm kernel 5 writes it: every lane of a warp stores
// the warp's sum into one shared word (one write on the GPU: not a race).
__global__ void block_sum(float* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  __shared__ float partial[32];
  float s = cg::reduce(warp, float(block.thread_rank()), cg::plus<float>());
  partial[warp.meta_group_rank()] = s;
  block.sync();
  float p = warp.thread_rank() < warp.meta_group_size() ? partial[warp.thread_rank()] : 0.0f;
  float total = cg::reduce(warp, p, cg::plus<float>());
  if (block.thread_rank() == 0) out[0] = total;
}

int main() {
  float* d;
  cudaMalloc(&d, 64 * sizeof(float));
  check<32>(d);
  check<8>(d);
  block_sum<<<1, 128>>>(d);
  float total = 0.0f;
  cudaMemcpy(&total, d, sizeof total, cudaMemcpyDeviceToHost);
  printf("block sum %.1f\n", total);
  return 0;
}
