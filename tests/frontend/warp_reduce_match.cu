// sm_80's __reduce_*_sync and sm_70's __match_any_sync / __match_all_sync over one
// warp of known values: each row is one intrinsic, printed for lanes 0 and 17.
// tests/frontend/test_frontend.cpp checks the values and that each call is one warp
// collective.
#include <cstdio>

constexpr int kRows = 20;

__global__ void collectives(unsigned* out) {
  const unsigned lane = threadIdx.x;
  const unsigned full = 0xffffffffu;
  const unsigned half = lane < 16 ? 0x0000ffffu : 0xffff0000u;
  int pred = -1;
  int r = 0;
  out[r++ * 32 + lane] = __reduce_add_sync(full, lane);                           // 0..31: 496
  out[r++ * 32 + lane] = unsigned(__reduce_add_sync(full, int(lane) - 16));       // -16
  out[r++ * 32 + lane] = __reduce_min_sync(full, lane + 7u);                      // 7
  out[r++ * 32 + lane] = unsigned(__reduce_min_sync(full, int(lane) - 20));       // -20
  out[r++ * 32 + lane] = __reduce_max_sync(full, unsigned(int(lane) - 20));       // lane 19: 0xffffffff
  out[r++ * 32 + lane] = unsigned(__reduce_max_sync(full, int(lane) - 20));       // 11
  out[r++ * 32 + lane] = __reduce_and_sync(full, lane | 0xf00u);                  // 0xf00
  out[r++ * 32 + lane] = __reduce_or_sync(full, 1u << lane);                      // 0xffffffff
  out[r++ * 32 + lane] = __reduce_xor_sync(full, lane * 0x9e3779b1u);
  out[r++ * 32 + lane] = __reduce_add_sync(half, lane);                           // 120 | 376
  out[r++ * 32 + lane] = __match_any_sync(full, lane % 3);
  out[r++ * 32 + lane] = __match_any_sync(full, (unsigned long long)(lane / 8) << 40);
  out[r++ * 32 + lane] = __match_any_sync(full, int(lane & 4) - 2);
  out[r++ * 32 + lane] = __match_all_sync(full, 7u, &pred);
  out[r++ * 32 + lane] = unsigned(pred);
  out[r++ * 32 + lane] = __match_all_sync(full, lane / 16, &pred);
  out[r++ * 32 + lane] = unsigned(pred);
  out[r++ * 32 + lane] = __match_all_sync(half, (long long)(lane / 16) << 33, &pred);
  out[r++ * 32 + lane] = unsigned(pred);
  out[r++ * 32 + lane] = __match_any_sync(half, lane & 1);
}

int main() {
  unsigned* d;
  cudaMalloc(&d, kRows * 32 * sizeof(unsigned));
  collectives<<<1, 32>>>(d);
  unsigned h[kRows * 32];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int r = 0; r < kRows; ++r) printf("%2d %08x %08x\n", r, h[r * 32], h[r * 32 + 17]);
  cudaFree(d);
  return 0;
}
