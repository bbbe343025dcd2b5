// Batched matmul with warp tiles: a third level of tiling between the block's and
// the thread's. A block of 128 threads (4 warps) owns a 128 x 128 tile of C and
// walks k in steps of BK = 16; each warp owns a 64 x 64 quarter of it, computed as
// WNITER = 4 sub-tiles of 64 x 16 side by side; in each sub-tile a thread holds
// TM x TN = 8 x 4 outputs, lanes 4 wide (lane % 4 along columns) and 8 tall. A thread
// thus holds 8 x 16 = 128 outputs in registers (matmul_vectorized: 64) and per k
// step loads 8 values of A (2 LDS.128) and 16 of B (4 LDS.128) for 128 FFMAs:
//   6 shared load instructions per 128 FFMAs (matmul_vectorized: 4 per 64);
// and the warp's loads are conflict-free: per half-warp As is 4 float4s 8 words
// apart (banks 0-3, 8-11, 16-19, 24-27) and Bs 4 neighbouring float4s, 1 wavefront
// each. Keeping each warp's reads inside one 64 x 64 region is what makes the
// accesses land on distinct banks; it is also the level at which tensor-core code
// (matmul_wmma) works, a warp-wide fragment at a time.
// Stores of C are float4s of whole 64-byte runs: per request 8 rows x 64 bytes,
// every sector written once (matmul_vectorized writes each twice, in two requests).
// Copying the tiles: per k step a thread copies 4 float4s of A (stored to As
// transposed as scalars: 4-way bank conflicts, a warp's 8 rows at 4 k's 4 * 128 words
// apart) and 4 of B (conflict-free float4 stores).
// Tile sizes are Simon Boehm's for the RTX A6000 (his kernel 10). The 16-byte
// alignment rule is matmul_vectorized's: scalar global accesses unless
// k % 4 == 0 and n % 4 == 0.
//
// Run:  simt run matmul_warptile --m 256 --n 256 --k 256
#include "kernels/harness.hpp"
#include "kernels/matmul_common.cuh"
#include <cuda_runtime.h>

#include <cstddef>

namespace warptile {
constexpr int BM = 128, BN = 128, BK = 16;  // block tile
constexpr int WM = 64, WN = 64;             // warp tile
constexpr int WNITER = 4;                   // sub-tiles of a warp tile along n
constexpr int TM = 8, TN = 4;               // thread tile in one sub-tile
constexpr int kThreads = 32 * (BM / WM) * (BN / WN);  // 128
constexpr int WMITER = WM * WN / (32 * TM * TN * WNITER);  // sub-tiles along m: 1
constexpr int WSUBM = WM / WMITER, WSUBN = WN / WNITER;    // 64 x 16
static_assert(WSUBN / TN * (WSUBM / TM) == 32, "a sub-tile is a warp's 32 threads");
constexpr int kPassesA = BM * BK / 4 / kThreads, kPassesB = BK * BN / 4 / kThreads;  // float4s per thread: 4, 4

}  // namespace warptile

template <bool kVec>
__global__ void __launch_bounds__(warptile::kThreads)
    matmul_warptile(const float* A, const float* B, float* C, int m, int n, int k) {
  using namespace warptile;
  __shared__ __align__(16) float As[BK * BM];  // transposed: As[d * BM + row]
  __shared__ __align__(16) float Bs[BK * BN];  // row-major: Bs[d * BN + col]
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  A += std::size_t(blockIdx.z) * m * k;
  B += std::size_t(blockIdx.z) * k * n;
  C += std::size_t(blockIdx.z) * m * n;
  const int t = threadIdx.x, warp = t / 32, lane = t % 32;
  const int warp_row = warp / (BN / WN) * WM, warp_col = warp % (BN / WN) * WN;  // the warp's tile in the block's
  const int row = warp_row + lane / (WSUBN / TN) * TM;  // the thread's tile in the warp's first sub-tile
  const int col = warp_col + lane % (WSUBN / TN) * TN;
  const int a_row = t / (BK / 4), a_col = t % (BK / 4) * 4;  // its float4s of the A tile, rows 32 apart
  const int b_row = t / (BN / 4), b_col = t % (BN / 4) * 4;  // and of the B tile, rows 4 apart
  constexpr int kRowsA = kThreads / (BK / 4), kRowsB = kThreads / (BN / 4);
  float acc[WMITER * TM][WNITER * TN] = {};
  float a_reg[WMITER * TM], b_reg[WNITER * TN];
  for (int k0 = 0; k0 < k; k0 += BK) {
    for (int p = 0; p < kPassesA; ++p) {
      const int r = a_row + p * kRowsA;
      const float4 a = matmul::load4<kVec>(A + std::size_t(row0 + r) * k + k0 + a_col, row0 + r < m, k - k0 - a_col);
      As[(a_col + 0) * BM + r] = a.x;
      As[(a_col + 1) * BM + r] = a.y;
      As[(a_col + 2) * BM + r] = a.z;
      As[(a_col + 3) * BM + r] = a.w;
    }
    for (int p = 0; p < kPassesB; ++p) {
      const int r = b_row + p * kRowsB;
      *reinterpret_cast<float4*>(&Bs[r * BN + b_col]) =
          matmul::load4<kVec>(B + std::size_t(k0 + r) * n + col0 + b_col, k0 + r < k, n - col0 - b_col);
    }
    __syncthreads();
    #pragma unroll
    for (int d = 0; d < BK; ++d) {  // k order: every output is summed k = 0, 1, 2, ...
      #pragma unroll
      for (int s = 0; s < WMITER; ++s)
        #pragma unroll
        for (int i = 0; i < TM; i += 4) {
          const float4 v = *reinterpret_cast<const float4*>(&As[d * BM + row + s * WSUBM + i]);
          float* a = &a_reg[s * TM + i];
          a[0] = v.x, a[1] = v.y, a[2] = v.z, a[3] = v.w;
        }
      #pragma unroll
      for (int s = 0; s < WNITER; ++s)
        #pragma unroll
        for (int j = 0; j < TN; j += 4) {
          const float4 v = *reinterpret_cast<const float4*>(&Bs[d * BN + col + s * WSUBN + j]);
          float* b = &b_reg[s * TN + j];
          b[0] = v.x, b[1] = v.y, b[2] = v.z, b[3] = v.w;
        }
      #pragma unroll
      for (int i = 0; i < WMITER * TM; ++i)
        #pragma unroll
        for (int j = 0; j < WNITER * TN; ++j) acc[i][j] = fmaf(a_reg[i], b_reg[j], acc[i][j]);
    }
    __syncthreads();  // before the next step overwrites the tiles
  }
  #pragma unroll
  for (int s = 0; s < WMITER; ++s)
    #pragma unroll
    for (int i = 0; i < TM; ++i) {
      const int r = row0 + row + s * WSUBM + i;
      if (r >= m) continue;
      #pragma unroll
      for (int u = 0; u < WNITER; ++u)
        #pragma unroll
        for (int j = 0; j < TN; j += 4) {
          const int c = col0 + col + u * WSUBN + j;
          const float* v = &acc[s * TM + i][u * TN + j];
          float* out = C + std::size_t(r) * n + c;
          if (kVec) {
            if (c < n) *reinterpret_cast<float4*>(out) = make_float4(v[0], v[1], v[2], v[3]);
          } else {
            #pragma unroll
            for (int q = 0; q < 4; ++q)
              if (c + q < n) out[q] = v[q];
          }
        }
    }
}

namespace {

using namespace simt::kernels;

Outputs run(const Params& p) {
  return matmul::run(p, [](const float* A, const float* B, float* C, matmul::Problem pr) {
    using namespace warptile;
    const dim3 grid((pr.n + BN - 1) / BN, (pr.m + BM - 1) / BM, pr.batch);
    if (pr.k % 4 == 0 && pr.n % 4 == 0) matmul_warptile<true><<<grid, kThreads>>>(A, B, C, pr.m, pr.n, pr.k);
    else matmul_warptile<false><<<grid, kThreads>>>(A, B, C, pr.m, pr.n, pr.k);
  });
}

Registration reg({"matmul_warptile",
                  "batched C = A @ B, 128x128 block tiles of 4 warps, 64x64 warp tiles, 8x16 outputs per thread, "
                  "float4 throughout (scalar global accesses unless k, n % 4 == 0)",
                  matmul::params(), run, matmul::check});

}  // namespace
