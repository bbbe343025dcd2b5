// Batched matmul on the tensor cores (nvcuda::wmma, <mma.h>): fp16 inputs, fp32
// accumulate. The step after matmul_tiled: the same shared-memory tiles, but the
// inner product of a 16 x 16 x 16 tile is one warp-wide mma_sync (two HMMA.16816
// instructions on sm_90) instead of 16 x 16 x 16 FFMAs spread over the block:
//   - a block of 4 warps owns a 32 x 32 tile of C, each warp a 16 x 16 quarter;
//   - per k step of 16, the block copies a 32 x 16 tile of A and a 16 x 32 tile of
//     B (fp16, half the bytes of fp32) into shared memory, zero-padding past the
//     matrix edges, so any m, n, k work;
//   - each warp loads its fragments from shared memory (ldmatrix on the GPU) and
//     accumulates in fp32 registers; C goes out through shared memory, clipped.
// The counters show the FP pipe idle (no FFMA) and simt__tensor_16bit_flops =
// 2 m n k rounded up to whole tiles; the time model prices them at the tensor peak.
//
// Numerics: the H200's MMA adds 16 products and C in one step, keeping 25 bits below
// the largest exponent and cutting toward zero (docs/validation/h200-tensor-cores.md);
// with the family's inputs (multiples of 1/64 in [-1, 1)) every product is a multiple
// of 2^-12 and every partial sum stays below 2^13, so nothing is cut and C equals the
// fp32 reference exactly (matmul::check).
//
// Run:  simt run matmul_wmma --m 256 --n 256 --k 256
#include "kernels/harness.hpp"
#include "kernels/matmul_common.cuh"
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include <cstdint>
#include <vector>

namespace wmma_tile {
constexpr int kEdge = 16;           // wmma's m16n16k16
constexpr int kBlockEdge = 2 * kEdge;  // 2 x 2 warps
constexpr int kThreads = 128;
}  // namespace wmma_tile

// Two consecutive elements of a row at p, zero past its end (`left` elements remain
// in the row from p) or past the matrix's last row (!row_in).
__device__ inline half2 pair(const half* p, bool row_in, int left) {
  const half zero = __float2half(0.0f);
  if (!row_in || left <= 0) return __halves2half2(zero, zero);
  if (left >= 2 && reinterpret_cast<std::uintptr_t>(p) % 4 == 0) return *reinterpret_cast<const half2*>(p);
  return __halves2half2(p[0], left >= 2 ? p[1] : zero);
}

__global__ void matmul_wmma(const half* A, const half* B, float* C, int m, int n, int k) {
  using namespace nvcuda;
  using namespace wmma_tile;
  __shared__ __align__(32) half sa[kBlockEdge * kEdge];   // 32 rows x 16 of A
  __shared__ __align__(32) half sb[kEdge * kBlockEdge];   // 16 rows x 32 of B
  __shared__ __align__(32) float sc[kBlockEdge * kBlockEdge];
  const int warp = threadIdx.x / 32, wr = warp / 2, wc = warp % 2;
  const int row0 = blockIdx.y * kBlockEdge, col0 = blockIdx.x * kBlockEdge;
  A += std::size_t(blockIdx.z) * m * k;
  B += std::size_t(blockIdx.z) * k * n;
  C += std::size_t(blockIdx.z) * m * n;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k0 = 0; k0 < k; k0 += kEdge) {
    // Pairs of halves: one 4-byte load and store per thread and pair when the row
    // length is even (a pair is then in or out of the matrix whole), element by
    // element otherwise. (Two threads writing the halves of one word would be two
    // 2-byte stores, and twice the load instructions over the same sectors.)
    for (int i = threadIdx.x; i < kBlockEdge * kEdge / 2; i += kThreads) {
      const int r = i / (kEdge / 2), c = 2 * (i % (kEdge / 2));  // A tile: 32 rows of 8 pairs
      reinterpret_cast<half2*>(sa)[i] = pair(A + std::size_t(row0 + r) * k + k0 + c, row0 + r < m, k - k0 - c);
      const int br = i / (kBlockEdge / 2), bc = 2 * (i % (kBlockEdge / 2));  // B tile: 16 rows of 16 pairs
      reinterpret_cast<half2*>(sb)[i] = pair(B + std::size_t(k0 + br) * n + col0 + bc, k0 + br < k, n - col0 - bc);
    }
    __syncthreads();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::load_matrix_sync(fa, sa + wr * kEdge * kEdge, kEdge);
    wmma::load_matrix_sync(fb, sb + wc * kEdge, kBlockEdge);
    wmma::mma_sync(acc, fa, fb, acc);
    __syncthreads();
  }
  wmma::store_matrix_sync(sc + wr * kEdge * kBlockEdge + wc * kEdge, acc, kBlockEdge, wmma::mem_row_major);
  __syncthreads();
  for (int i = threadIdx.x; i < kBlockEdge * kBlockEdge; i += kThreads) {
    const int r = i / kBlockEdge, c = i % kBlockEdge;
    if (row0 + r < m && col0 + c < n) C[(row0 + r) * n + col0 + c] = sc[i];
  }
}

namespace {

using namespace simt::kernels;

std::vector<half> to_half(const std::vector<float>& v) {
  std::vector<half> h(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) h[i] = __float2half(v[i]);  // exact: multiples of 1/64
  return h;
}

// matmul::run's problem and inputs, uploaded as fp16.
Outputs run(const Params& p) {
  const matmul::Problem pr = matmul::problem(p);
  const std::size_t a_size = std::size_t(pr.batch) * pr.m * pr.k, b_size = std::size_t(pr.batch) * pr.k * pr.n,
                    c_size = std::size_t(pr.batch) * pr.m * pr.n;
  const std::vector<half> a = to_half(test_values(a_size, 1)), b = to_half(test_values(b_size, 2));
  half *da, *db;
  float* dc;
  cudaMalloc(&da, a_size * sizeof(half));
  cudaMalloc(&db, b_size * sizeof(half));
  cudaMalloc(&dc, c_size * sizeof(float));
  cudaMemcpy(da, a.data(), a_size * sizeof(half), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), b_size * sizeof(half), cudaMemcpyHostToDevice);
  using wmma_tile::kBlockEdge;
  const dim3 grid((pr.n + kBlockEdge - 1) / kBlockEdge, (pr.m + kBlockEdge - 1) / kBlockEdge, pr.batch);
  matmul_wmma<<<grid, wmma_tile::kThreads>>>(da, db, dc, pr.m, pr.n, pr.k);
  std::vector<float> c(c_size);
  cudaMemcpy(c.data(), dc, c_size * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  return {{{"c", c}}};
}

Registration reg({"matmul_wmma", "batched C = A @ B on the tensor cores: fp16 A and B, fp32 accumulate (wmma 16x16x16)",
                  matmul::params(), run, matmul::check});

}  // namespace
