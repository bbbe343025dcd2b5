// Lab 11 with A's tile copied column by column: lane tx copies A[by*16 + tx][t + ty]
// into As[tx][ty]. Right output and the same number of requests, but the lanes' floats
// are k apart: many more sectors per request.
#include "lab.cuh"

constexpr int TILE = 16;

__global__ void matmul(const float* A, const float* B, float* C, int m, int n, int k) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < k; t += TILE) {
    // Past the edge the tiles hold 0: adding 0 * b leaves acc unchanged, so the inner
    // loop needs no bounds checks and the sum stays in the reference's order.
    const int arow = blockIdx.y * TILE + tx;  // lanes walk rows of A: k floats apart
    As[tx][ty] = (arow < m && t + ty < k) ? A[arow * k + t + ty] : 0.0f;
    Bs[ty][tx] = (t + ty < k && col < n) ? B[(t + ty) * n + col] : 0.0f;
    __syncthreads();  // every copy is in before anyone reads the tiles
    for (int i = 0; i < TILE; ++i) acc = acc + As[ty][i] * Bs[i][tx];
    __syncthreads();  // every read is done before the next step overwrites them
  }
  if (row < m && col < n) C[row * n + col] = acc;
}

void launch_matmul(const float* A, const float* B, float* C, int m, int n, int k) {
  const dim3 threads(TILE, TILE);
  const dim3 blocks(lab::blocks_for(n, TILE), lab::blocks_for(m, TILE));
  matmul<<<blocks, threads>>>(A, B, C, m, n, k);
}
