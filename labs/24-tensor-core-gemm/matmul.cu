// Lab 24 — tensor cores. Read labs/24-tensor-core-gemm/README.md
// (simt lab show tensor-core-gemm). Check your work: simt lab check tensor-core-gemm matmul.cu
//
// A shared-memory tiled matmul (lab 11) on fp16 inputs: each thread converts halves
// to float and multiplies and adds them one at a time — 2 m n k FP32 instructions'
// worth of FLOPs on the CUDA cores while the tensor cores sit idle.
#include <mma.h>

#include "lab.cuh"

constexpr int kTile = 16;

__global__ void matmul(const half* A, const half* B, float* C, int m, int n, int k) {
  __shared__ half sa[kTile][kTile];
  __shared__ half sb[kTile][kTile];
  const int row = blockIdx.y * kTile + threadIdx.y, col = blockIdx.x * kTile + threadIdx.x;
  float acc = 0.0f;
  for (int k0 = 0; k0 < k; k0 += kTile) {
    // Zero past the edges, so any m, n, k work.
    sa[threadIdx.y][threadIdx.x] = row < m && k0 + threadIdx.x < k ? A[row * k + k0 + threadIdx.x] : __float2half(0.0f);
    sb[threadIdx.y][threadIdx.x] = k0 + threadIdx.y < k && col < n ? B[(k0 + threadIdx.y) * n + col] : __float2half(0.0f);
    __syncthreads();
    // TODO 1: a warp computes a whole 16 x 16 tile of C with nvcuda::wmma: load
    //         matrix_a and matrix_b fragments (m16n16k16, half, row_major) from the
    //         shared tiles and accumulate with mma_sync into a float accumulator.
    for (int p = 0; p < kTile; ++p) acc += __half2float(sa[threadIdx.y][p]) * __half2float(sb[p][threadIdx.x]);
    __syncthreads();
  }
  // TODO 2: store the accumulator fragment (store_matrix_sync) to shared memory and
  //         write the tile's elements that lie inside C.
  if (row < m && col < n) C[row * n + col] = acc;
}

void launch_matmul(const half* A, const half* B, float* C, int m, int n, int k) {
  // TODO 3: one warp (32 threads) per 16 x 16 tile, or a few warps per block.
  const dim3 block(kTile, kTile), grid((n + kTile - 1) / kTile, (m + kTile - 1) / kTile);
  matmul<<<grid, block>>>(A, B, C, m, n, k);
}
