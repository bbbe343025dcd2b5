// Batched matmul, 2-D block tiling: each thread computes a TM x TN = 8 x 8 tile of
// C held in registers. A block of 256 threads owns a 128 x 128 tile of C and walks k
// in steps of BK = 8, staging a 128 x 8 tile of A and an 8 x 128 tile of B in shared
// memory (4 floats of each per thread, zero past the matrix edges, so any m, n, k).
// Per k step a thread copies its 8 values of A (a column of its tile's rows) and 8 of
// B (a row of its columns) into registers and does their 8 x 8 outer product:
//   per k step and thread: TM + TN = 16 shared loads for TM * TN = 64 FFMAs,
// a quarter of a shared load per FFMA, against matmul_blocktile_1d's 9 per 8. The
// 128-wide tiles halve the global loads again: each block reads a 128-row slab of A
// and a 128-column slab of B once, (128 k + 128 k) * 4 / 32 = 32 k sectors a block.
//
// The price is bank conflicts. Written one float each, a warp (16 thread columns x
// 2 thread rows) would read As[(row + i) * 8 + d] as two words 64 apart (one bank:
// 2 wavefronts) and Bs[d * 128 + col + j] as 16 words 8 apart (4 in each of 4 banks:
// 4 wavefronts). nvcc unrolls the loops and fuses a thread's 4 neighbouring Bs, and
// 4 As of a row along d, into LDS.128, which the simulator counts as ncu does
// (docs/counters.md, "Wide shared accesses"): per k step 2 As LDS.128 of one 16-byte
// word per half-warp (2 wavefronts) and 2 Bs LDS.128 of 16 float4s 32 bytes apart
// (8 wavefronts, 4 conflicts): 20 wavefronts for 4 loads, matmul_vectorized's. The C
// stores are 8 floats 32 bytes apart per lane: 32 sectors per request, each sector
// written 8 times (once per j), 8x the sectors of matmul_blocktile_1d's stores.
// matmul_vectorized makes the 16-byte loads explicit (and the global ones too).
//
// Run:  simt run matmul_blocktile_2d --m 256 --n 256 --k 256
#include "kernels/harness.hpp"
#include "kernels/matmul_common.cuh"
#include <cuda_runtime.h>

#include <cstddef>

namespace blocktile_2d {
constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
constexpr int kThreads = BM * BN / (TM * TN);  // 256
constexpr int kRowsA = kThreads / BK;          // A tile rows copied per pass (32)
constexpr int kRowsB = kThreads / BN;          // B tile rows copied per pass (2)
}  // namespace blocktile_2d

__global__ void __launch_bounds__(blocktile_2d::kThreads)
    matmul_blocktile_2d(const float* A, const float* B, float* C, int m, int n, int k) {
  using namespace blocktile_2d;
  __shared__ float As[BM * BK];  // row-major, 128 rows of 8
  __shared__ float Bs[BK * BN];  // row-major, 8 rows of 128
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  A += std::size_t(blockIdx.z) * m * k;
  B += std::size_t(blockIdx.z) * k * n;
  C += std::size_t(blockIdx.z) * m * n;
  const int t = threadIdx.x;
  const int col = t % (BN / TN) * TN, row = t / (BN / TN) * TM;  // this thread's 8 x 8 tile of C
  const int a_row = t / BK, a_col = t % BK;
  const int b_row = t / BN, b_col = t % BN;
  float acc[TM][TN] = {};
  float a_reg[TM], b_reg[TN];
  for (int k0 = 0; k0 < k; k0 += BK) {
    for (int r = a_row; r < BM; r += kRowsA) {
      if (row0 + r < m && k0 + a_col < k) As[r * BK + a_col] = A[std::size_t(row0 + r) * k + k0 + a_col];
      else As[r * BK + a_col] = 0.0f;
    }
    for (int r = b_row; r < BK; r += kRowsB) {
      if (k0 + r < k && col0 + b_col < n) Bs[r * BN + b_col] = B[std::size_t(k0 + r) * n + col0 + b_col];
      else Bs[r * BN + b_col] = 0.0f;
    }
    __syncthreads();
    #pragma unroll
    for (int d = 0; d < BK; ++d) {  // k order: every output is summed k = 0, 1, 2, ...
      #pragma unroll
      for (int i = 0; i < TM; ++i) a_reg[i] = As[(row + i) * BK + d];
      #pragma unroll
      for (int j = 0; j < TN; ++j) b_reg[j] = Bs[d * BN + col + j];
      #pragma unroll
      for (int i = 0; i < TM; ++i)
        #pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a_reg[i], b_reg[j], acc[i][j]);
    }
    __syncthreads();  // before the next step overwrites the tiles
  }
  #pragma unroll
  for (int i = 0; i < TM; ++i) {
    if (row0 + row + i >= m) continue;
    #pragma unroll
    for (int j = 0; j < TN; ++j)
      if (col0 + col + j < n) C[std::size_t(row0 + row + i) * n + col0 + col + j] = acc[i][j];
  }
}

namespace {

using namespace simt::kernels;

Outputs run(const Params& p) {
  return matmul::run(p, [](const float* A, const float* B, float* C, matmul::Problem pr) {
    using namespace blocktile_2d;
    const dim3 grid((pr.n + BN - 1) / BN, (pr.m + BM - 1) / BM, pr.batch);
    matmul_blocktile_2d<<<grid, kThreads>>>(A, B, C, pr.m, pr.n, pr.k);
  });
}

Registration reg({"matmul_blocktile_2d",
                  "batched C = A @ B, 128x128 block tiles, an 8x8 register tile per thread (16 shared loads per 64 FFMAs)",
                  matmul::params(), run, matmul::check});

}  // namespace
