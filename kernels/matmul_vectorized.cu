// Batched matmul, 2-D block tiling with 16-byte accesses: matmul_blocktile_2d's
// tiles (128 x 128 per block, 8 x 8 per thread, BK = 8), with
//   - A's tile stored transposed in shared memory (As[d][row]), so a thread's 8
//     values of A for one k are 8 neighbouring words, like its 8 values of B: each
//     is read with two float4 loads (LDS.128). Per k step and thread: 4 shared load
//     instructions for 64 FFMAs, written out (nvcc already fuses matmul_blocktile_2d's
//     16 scalar reads into these 4);
//   - the tiles copied with float4 global loads (LDG.128): a thread copies one float4
//     of A (stored to As as 4 scalars, transposed) and one of B (stored as a float4),
//     2 load requests per warp and k step instead of 8, the same sectors;
//   - C stored as float4s: 16 store requests per warp instead of 64.
// float4 accesses need 16-byte alignment: when k % 4 == 0 and n % 4 == 0 every row of
// A, B and C starts 16-byte aligned and every float4 lies wholly inside or outside
// the matrix; otherwise the kernel copies and stores with scalar accesses (the
// template's kVec = false, chosen at launch), the shared-memory layout and the inner
// loop unchanged.
//
// Shared wavefronts per warp (16 thread columns x 2 thread rows) and k step: the two
// As loads are one 16-byte word per half-warp (2 wavefronts each, conflict-free);
// the two Bs loads are 16 float4s 32 bytes apart, 4 words in each of 16 banks per
// half-warp (8 wavefronts each, 4 of them conflicts): 20 wavefronts, as
// matmul_blocktile_2d's fused reads (48 were it issued as written). The transposed stores to As are 2-way conflicted (the
// warp's 16 rows at two k's 4 * 128 words apart, one bank); the float4 stores to Bs
// are conflict-free.
//
// Run:  simt run matmul_vectorized --m 256 --n 256 --k 256
#include "kernels/harness.hpp"
#include "kernels/matmul_common.cuh"
#include <cuda_runtime.h>

#include <cstddef>

namespace vectorized {
constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
constexpr int kThreads = BM * BN / (TM * TN);  // 256
static_assert(kThreads == BM * BK / 4 && kThreads == BK * BN / 4, "one float4 of each tile per thread");

}  // namespace vectorized

template <bool kVec>
__global__ void __launch_bounds__(vectorized::kThreads)
    matmul_vectorized(const float* A, const float* B, float* C, int m, int n, int k) {
  using namespace vectorized;
  __shared__ __align__(16) float As[BK * BM];  // transposed: As[d * BM + row]
  __shared__ __align__(16) float Bs[BK * BN];  // row-major: Bs[d * BN + col]
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  A += std::size_t(blockIdx.z) * m * k;
  B += std::size_t(blockIdx.z) * k * n;
  C += std::size_t(blockIdx.z) * m * n;
  const int t = threadIdx.x;
  const int col = t % (BN / TN) * TN, row = t / (BN / TN) * TM;  // this thread's 8 x 8 tile of C
  const int a_row = t / (BK / 4), a_col = t % (BK / 4) * 4;      // its float4 of the A tile
  const int b_row = t / (BN / 4), b_col = t % (BN / 4) * 4;      // and of the B tile
  float acc[TM][TN] = {};
  float a_reg[TM], b_reg[TN];
  for (int k0 = 0; k0 < k; k0 += BK) {
    const float4 a = matmul::load4<kVec>(A + std::size_t(row0 + a_row) * k + k0 + a_col, row0 + a_row < m, k - k0 - a_col);
    As[(a_col + 0) * BM + a_row] = a.x;
    As[(a_col + 1) * BM + a_row] = a.y;
    As[(a_col + 2) * BM + a_row] = a.z;
    As[(a_col + 3) * BM + a_row] = a.w;
    *reinterpret_cast<float4*>(&Bs[b_row * BN + b_col]) =
        matmul::load4<kVec>(B + std::size_t(k0 + b_row) * n + col0 + b_col, k0 + b_row < k, n - col0 - b_col);
    __syncthreads();
    #pragma unroll
    for (int d = 0; d < BK; ++d) {  // k order: every output is summed k = 0, 1, 2, ...
      #pragma unroll
      for (int i = 0; i < TM; i += 4) {
        const float4 v = *reinterpret_cast<const float4*>(&As[d * BM + row + i]);
        a_reg[i] = v.x, a_reg[i + 1] = v.y, a_reg[i + 2] = v.z, a_reg[i + 3] = v.w;
      }
      #pragma unroll
      for (int j = 0; j < TN; j += 4) {
        const float4 v = *reinterpret_cast<const float4*>(&Bs[d * BN + col + j]);
        b_reg[j] = v.x, b_reg[j + 1] = v.y, b_reg[j + 2] = v.z, b_reg[j + 3] = v.w;
      }
      #pragma unroll
      for (int i = 0; i < TM; ++i)
        #pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a_reg[i], b_reg[j], acc[i][j]);
    }
    __syncthreads();  // before the next step overwrites the tiles
  }
  #pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int r = row0 + row + i;
    if (r >= m) continue;
    float* c = C + std::size_t(r) * n + col0 + col;
    #pragma unroll
    for (int j = 0; j < TN; j += 4) {
      if (kVec) {
        if (col0 + col + j < n) *reinterpret_cast<float4*>(c + j) = make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
      } else {
        #pragma unroll
        for (int q = j; q < j + 4; ++q)
          if (col0 + col + q < n) c[q] = acc[i][q];
      }
    }
  }
}

namespace {

using namespace simt::kernels;

Outputs run(const Params& p) {
  return matmul::run(p, [](const float* A, const float* B, float* C, matmul::Problem pr) {
    using namespace vectorized;
    const dim3 grid((pr.n + BN - 1) / BN, (pr.m + BM - 1) / BM, pr.batch);
    if (pr.k % 4 == 0 && pr.n % 4 == 0) matmul_vectorized<true><<<grid, kThreads>>>(A, B, C, pr.m, pr.n, pr.k);
    else matmul_vectorized<false><<<grid, kThreads>>>(A, B, C, pr.m, pr.n, pr.k);
  });
}

Registration reg({"matmul_vectorized",
                  "matmul_blocktile_2d with A transposed in shared memory and float4 loads/stores (LDS.128, LDG.128; "
                  "scalar global accesses unless k, n % 4 == 0)",
                  matmul::params(), run, matmul::check});

}  // namespace
