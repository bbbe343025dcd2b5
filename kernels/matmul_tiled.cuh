// Batched matmul, shared-memory tiling: a TILE x TILE block of threads computes
// a TILE x TILE tile of C. It walks k in steps of TILE; at each step the block
// copies one tile of A and one of B into shared memory (one coalesced float per
// thread each) and then every thread reads TILE values of each from shared
// memory. Global load requests drop by a factor of TILE against the coalesced
// kernel (256^3 with TILE 32: 1,048,576 -> 32,768; sectors 2,621,440 -> 131,072).
//
// Shared reads in the inner loop are conflict-free: As[ty][i] is one word per
// row of threads in the warp (a broadcast; with TILE 16 the warp's two rows hit
// banks 16 apart), and Bs[i][tx] is TILE consecutive words.
#pragma once
#include <cuda_runtime.h>

template <int TILE>
__global__ void matmul_tiled(const float* A, const float* B, float* C, int m, int n, int k) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  A += blockIdx.z * m * k;
  B += blockIdx.z * k * n;
  float acc = 0.0f;
  for (int t = 0; t < k; t += TILE) {
    // Out-of-range elements are stored as 0 so the inner loop needs no checks.
    if (row < m && t + tx < k) As[ty][tx] = A[row * k + t + tx];
    else As[ty][tx] = 0.0f;
    if (t + ty < k && col < n) Bs[ty][tx] = B[(t + ty) * n + col];
    else Bs[ty][tx] = 0.0f;
    __syncthreads();
    for (int i = 0; i < TILE; ++i) acc = fmaf(As[ty][i], Bs[i][tx], acc);
    __syncthreads();  // before the next step overwrites the tiles
  }
  if (row < m && col < n) C[blockIdx.z * m * n + row * n + col] = acc;
}
