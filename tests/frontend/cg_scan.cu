// cg::inclusive_scan and cg::exclusive_scan (<cooperative_groups/scan.h>) over tiles
// of 32 and 8 and over coalesced groups of 32 and of 11 lanes, with the default plus
// and with cg::greater (a max); a block made from cg::block_tile_memory.
#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
#include <cstdio>

namespace cg = cooperative_groups;

constexpr int kRows = 8;

__global__ void scans(int* out) {
  __shared__ cg::block_tile_memory<64> scratch;
  cg::thread_block block = cg::this_thread_block(scratch);
  const int t = int(block.thread_rank());
  const int lane = t % 32;
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  cg::thread_block_tile<8> tile8 = cg::tiled_partition<8>(block);
  const int v = lane + 1;
  const int w = (lane * 7) % 11;  // 0 7 3 10 6 2 9 5 1 8 4 0 ...
  out[0 * 64 + t] = cg::inclusive_scan(warp, v);                    // (r+1)(r+2)/2
  out[1 * 64 + t] = cg::exclusive_scan(warp, v);                    // r(r+1)/2
  out[2 * 64 + t] = cg::inclusive_scan(tile8, w, cg::greater<int>());  // running max within 8
  out[3 * 64 + t] = cg::exclusive_scan(tile8, w, cg::greater<int>());  // rank 0: int{} = 0
  cg::coalesced_group all = cg::coalesced_threads();
  out[4 * 64 + t] = cg::exclusive_scan(all, v);
  out[5 * 64 + t] = -1;
  out[6 * 64 + t] = -1;
  out[7 * 64 + t] = -1;
  if (lane % 3 == 0) {  // lanes 0, 3, ..., 30: 11 lanes, ranks 0..10
    cg::coalesced_group some = cg::coalesced_threads();
    out[5 * 64 + t] = cg::inclusive_scan(some, lane);
    out[6 * 64 + t] = cg::exclusive_scan(some, lane);
    out[7 * 64 + t] = cg::exclusive_scan(some, w, cg::greater<int>());
  }
  block.sync();
}

int main() {
  int* d;
  cudaMalloc(&d, kRows * 64 * sizeof(int));
  scans<<<1, 64>>>(d);
  int h[kRows * 64];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int r = 0; r < kRows; ++r) {
    printf("%d:", r);
    for (int t = 0; t < 12; ++t) printf(" %d", h[r * 64 + t]);
    printf(" | %d %d\n", h[r * 64 + 31], h[r * 64 + 63]);
  }
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  cudaFree(d);
  return 0;
}
