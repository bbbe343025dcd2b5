// Group shuffles of values wider than 8 bytes: a uint4 through a tile of 32
// (shfl_xor, shfl_down), a 12-byte struct through a tile of 8 (shfl), and a uint4
// through a coalesced group (shfl_up). CUDA's cooperative groups move such a value
// 4 bytes at a time, one SHFL per word.
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

struct Triple {
  int a, b, c;
};

__global__ void shuffles(unsigned* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  cg::thread_block_tile<8> tile8 = cg::tiled_partition<8>(block);
  const unsigned t = block.thread_rank();
  uint4 v = make_uint4(t, 100 + t, 200 + t, 300 + t);
  uint4 x = warp.shfl_xor(v, 1);  // 4 SHFL
  uint4 d = warp.shfl_down(v, 2);  // 4 SHFL
  Triple tr{int(t), -int(t), int(t * t)};
  Triple first = tile8.shfl(tr, 0);  // 3 SHFL
  out[t * 12 + 0] = x.x;
  out[t * 12 + 1] = x.y;
  out[t * 12 + 2] = x.z;
  out[t * 12 + 3] = x.w;
  out[t * 12 + 4] = d.x;
  out[t * 12 + 5] = d.w;
  out[t * 12 + 6] = unsigned(first.a);
  out[t * 12 + 7] = unsigned(first.b);
  out[t * 12 + 8] = unsigned(first.c);
  out[t * 12 + 9] = 0;
  out[t * 12 + 10] = 0;
  if (t % 2 == 0) {  // the even lanes: 16 of them
    cg::coalesced_group evens = cg::coalesced_threads();  // 1 collective (__activemask)
    uint4 up = evens.shfl_up(v, 1);  // 4 SHFL
    out[t * 12 + 9] = up.x;
    out[t * 12 + 10] = up.w;
  }
  out[t * 12 + 11] = t;
}

int main() {
  const int n = 64;
  unsigned* d;
  cudaMalloc(&d, n * 12 * sizeof(unsigned));
  shuffles<<<1, n>>>(d);
  unsigned h[n * 12];
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  for (int t : {0, 1, 5, 30, 31, 32, 42, 63}) {
    printf("%2d:", t);
    for (int k = 0; k < 11; ++k) printf(" %d", int(h[t * 12 + k]));
    printf("\n");
  }
  printf("%s\n", cudaGetErrorName(cudaGetLastError()));
  cudaFree(d);
  return 0;
}
