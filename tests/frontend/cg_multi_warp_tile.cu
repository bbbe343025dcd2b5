// Tiles of several warps (thread_block_tile<64>, <128>, <256>), from a block made
// with cg::block_tile_memory as NVIDIA's reduction sample makes it: their ranks and
// meta-group ranks, and cg::reduce over them of ints (any order gives CUDA's result)
// and of floats (the order across warps decides the bits).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>

namespace cg = cooperative_groups;

constexpr int kBlock = 256;

template <unsigned N> __device__ void tile_facts(cg::thread_block& block, int* out, float* sums, int row) {
  cg::thread_block_tile<N> tile = cg::tiled_partition<N>(block);
  const int t = int(block.thread_rank());
  const int rank = int(tile.thread_rank());
  out[(row * 4 + 0) * kBlock + t] = rank;
  out[(row * 4 + 1) * kBlock + t] = int(tile.meta_group_rank()) * 1000 + int(tile.meta_group_size());
  out[(row * 4 + 2) * kBlock + t] = cg::reduce(tile, t, cg::plus<int>());
  out[(row * 4 + 3) * kBlock + t] = int(tile.num_threads());
  // 1/(t+1): a float sum whose bits depend on the order of the adds.
  sums[row * kBlock + t] = cg::reduce(tile, 1.0f / float(t + 1), cg::plus<float>());
}

__global__ void tiles(int* out, float* sums) {
  __shared__ cg::block_tile_memory<kBlock> scratch;
  cg::thread_block block = cg::this_thread_block(scratch);
  tile_facts<64>(block, out, sums, 0);
  tile_facts<128>(block, out, sums, 1);
  tile_facts<256>(block, out, sums, 2);
}

int main() {
  int* d_out;
  float* d_sums;
  cudaMalloc(&d_out, 3 * 4 * kBlock * sizeof(int));
  cudaMalloc(&d_sums, 3 * kBlock * sizeof(float));
  tiles<<<1, kBlock>>>(d_out, d_sums);
  static int out[3 * 4 * kBlock];
  static float sums[3 * kBlock];
  cudaMemcpy(out, d_out, sizeof(out), cudaMemcpyDeviceToHost);
  cudaMemcpy(sums, d_sums, sizeof(sums), cudaMemcpyDeviceToHost);
  const int sizes[3] = {64, 128, 256};
  for (int row = 0; row < 3; ++row)
    for (int t : {0, 63, 64, 200, 255}) {
      const int* o = out + row * 4 * kBlock;
      printf("tile %d thread %d: rank %d meta %d/%d sum %d size %d float %a\n", sizes[row], t, o[t],
             o[kBlock + t] / 1000, o[kBlock + t] % 1000, o[2 * kBlock + t], o[3 * kBlock + t], sums[row * kBlock + t]);
    }
  printf("%s\n", cudaGetErrorName(cudaGetLastError()));
  cudaFree(d_out);
  cudaFree(d_sums);
  return 0;
}
