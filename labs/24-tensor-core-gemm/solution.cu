// Lab 24 — a solution: one warp per 16 x 16 tile of C. Per k step of 16 the warp
// stages a 16 x 16 tile of A and of B in shared memory (zero past the edges), loads
// them as wmma fragments and does one mma_sync (two HMMA instructions on the H200);
// the accumulator goes out through shared memory, clipped to C.
#include <mma.h>

#include "lab.cuh"

constexpr int kTile = 16;

__global__ void matmul(const half* A, const half* B, float* C, int m, int n, int k) {
  using namespace nvcuda;
  __shared__ __align__(32) half sa[kTile * kTile];
  __shared__ __align__(32) half sb[kTile * kTile];
  __shared__ __align__(32) float sc[kTile * kTile];
  const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k0 = 0; k0 < k; k0 += kTile) {
    for (int i = threadIdx.x; i < kTile * kTile; i += 32) {
      const int r = i / kTile, c = i % kTile;
      sa[i] = row0 + r < m && k0 + c < k ? A[(row0 + r) * k + k0 + c] : __float2half(0.0f);
      sb[i] = k0 + r < k && col0 + c < n ? B[(k0 + r) * n + col0 + c] : __float2half(0.0f);
    }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::load_matrix_sync(fa, sa, kTile);
    wmma::load_matrix_sync(fb, sb, kTile);
    wmma::mma_sync(acc, fa, fb, acc);
    __syncwarp();
  }
  wmma::store_matrix_sync(sc, acc, kTile, wmma::mem_row_major);
  __syncwarp();
  for (int i = threadIdx.x; i < kTile * kTile; i += 32) {
    const int r = i / kTile, c = i % kTile;
    if (row0 + r < m && col0 + c < n) C[(row0 + r) * n + col0 + c] = sc[i];
  }
}

void launch_matmul(const half* A, const half* B, float* C, int m, int n, int k) {
  const dim3 grid((n + kTile - 1) / kTile, (m + kTile - 1) / kTile);
  matmul<<<grid, 32>>>(A, B, C, m, n, k);
}
