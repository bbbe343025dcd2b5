// Lab 11 — tiled matmul: reuse every load TILE times through shared memory. Read
// labs/11-tiled-matmul/README.md (simt lab show tiled-matmul).
// Check your work: simt lab check tiled-matmul matmul.cu
//
// This file is the naive kernel, and its output is right: one thread per element of
// C, reading a whole row of A and a whole column of B from global memory — 2k loads
// per thread, although the 16 threads of a block row all read the same row of A and
// the 16 threads of a block column the same column of B.
#include "lab.cuh"

constexpr int TILE = 16;  // a block is TILE x TILE threads and computes a TILE x TILE tile of C

__global__ void matmul(const float* A, const float* B, float* C, int m, int n, int k) {
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  // TODO 1: declare two TILE x TILE __shared__ tiles, one for A and one for B.
  float acc = 0.0f;
  // TODO 2: walk k in steps of TILE. At each step every thread copies ONE element of
  //         A's tile (row `row`, column t + threadIdx.x) and ONE of B's (row
  //         t + threadIdx.y, column `col`) into shared memory — 0 where the element is
  //         past the matrix's edge — then the block waits for all copies.
  // TODO 3: accumulate TILE products from the shared tiles, in order of k (the
  //         reference adds p = 0, 1, ..., k-1 in that order), and wait again before
  //         the next step overwrites the tiles.
  if (row < m && col < n) {
    for (int p = 0; p < k; ++p) acc = acc + A[row * k + p] * B[p * n + col];
    C[row * n + col] = acc;
  }
}

void launch_matmul(const float* A, const float* B, float* C, int m, int n, int k) {
  const dim3 threads(TILE, TILE);
  const dim3 blocks(lab::blocks_for(n, TILE), lab::blocks_for(m, TILE));
  matmul<<<blocks, threads>>>(A, B, C, m, n, k);
}
