// Batched matmul, 1-D block tiling: each thread computes a column of TM = 8
// outputs instead of one. A block of 512 threads owns a 64 x 64 tile of C and walks
// k in steps of BK = 8, staging a 64 x 8 tile of A and an 8 x 64 tile of B in shared
// memory (one float of each per thread, zero past the matrix edges, so any m, n, k).
// In the inner loop a thread reads one value of B and keeps it in a register for
// its TM outputs, which share their column:
//   per k step and thread: 1 + TM = 9 shared loads for TM = 8 FFMAs,
// against matmul_tiled's 2 loads per FFMA. Shared traffic, which bounds
// matmul_tiled, drops 1.8x; the global tiles are 64 wide instead of 32, so each
// element of A and B is loaded from global memory 64 / 32 = 2x less often too
// (each block reads a 64-row slab of A and a 64-column slab of B once).
//
// Per warp (32 neighbouring columns of one row of threads) every shared access is
// one wavefront: Bs[d][col] is 32 consecutive words, As[row][d] one word for the
// whole warp (a broadcast); the tile stores are 32 consecutive words each.
// Global loads: A's tile rows are 8 floats (32 bytes): 4 rows = 4 sectors per warp;
// B's tile rows are 64 floats: 32 of them = 4 sectors per warp.
// On the GPU nvcc unrolls the loops and fuses the 8 As[row][d] of one row into two
// LDS.128 (each 2 wavefronts, one per half-warp): per k step of 8 a warp issues 8 Bs
// LDS and 16 As LDS.128, and the simulator counts them so, as ncu does
// (docs/counters.md, "Wide shared accesses").
//
// Run:  simt run matmul_blocktile_1d --m 256 --n 256 --k 256
#include "kernels/harness.hpp"
#include "kernels/matmul_common.cuh"
#include <cuda_runtime.h>

#include <cstddef>

namespace blocktile_1d {
constexpr int BM = 64, BN = 64, BK = 8, TM = 8;
constexpr int kThreads = BM * BN / TM;  // 512
static_assert(kThreads == BM * BK && kThreads == BK * BN, "one element of each tile per thread");
}  // namespace blocktile_1d

__global__ void __launch_bounds__(blocktile_1d::kThreads)
    matmul_blocktile_1d(const float* A, const float* B, float* C, int m, int n, int k) {
  using namespace blocktile_1d;
  __shared__ float As[BM * BK];  // row-major, 64 rows of 8
  __shared__ float Bs[BK * BN];  // row-major, 8 rows of 64
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  A += std::size_t(blockIdx.z) * m * k;
  B += std::size_t(blockIdx.z) * k * n;
  C += std::size_t(blockIdx.z) * m * n;
  const int t = threadIdx.x;
  const int col = t % BN, row = t / BN * TM;   // this thread's outputs: rows row..row+TM-1 of column col
  const int a_row = t / BK, a_col = t % BK;    // the element of the A tile it copies
  const int b_row = t / BN, b_col = t % BN;    // and of the B tile
  float acc[TM] = {};
  for (int k0 = 0; k0 < k; k0 += BK) {
    if (row0 + a_row < m && k0 + a_col < k) As[t] = A[std::size_t(row0 + a_row) * k + k0 + a_col];
    else As[t] = 0.0f;
    if (k0 + b_row < k && col0 + b_col < n) Bs[t] = B[std::size_t(k0 + b_row) * n + col0 + b_col];
    else Bs[t] = 0.0f;
    __syncthreads();
    #pragma unroll
    for (int d = 0; d < BK; ++d) {  // k order: every output is summed k = 0, 1, 2, ...
      const float b = Bs[d * BN + col];
      #pragma unroll
      for (int i = 0; i < TM; ++i) acc[i] = fmaf(As[(row + i) * BK + d], b, acc[i]);
    }
    __syncthreads();  // before the next step overwrites the tiles
  }
  if (col0 + col >= n) return;
  #pragma unroll
  for (int i = 0; i < TM; ++i)
    if (row0 + row + i < m) C[std::size_t(row0 + row + i) * n + col0 + col] = acc[i];
}

namespace {

using namespace simt::kernels;

Outputs run(const Params& p) {
  return matmul::run(p, [](const float* A, const float* B, float* C, matmul::Problem pr) {
    using namespace blocktile_1d;
    const dim3 grid((pr.n + BN - 1) / BN, (pr.m + BM - 1) / BM, pr.batch);
    matmul_blocktile_1d<<<grid, kThreads>>>(A, B, C, pr.m, pr.n, pr.k);
  });
}

Registration reg({"matmul_blocktile_1d",
                  "batched C = A @ B, 64x64 block tiles, each thread a column of 8 outputs (1 B load per 8 FFMAs)",
                  matmul::params(), run, matmul::check});

}  // namespace
