// Lab 11 with the second barrier left out: a fast warp copies the next step's tiles
// while a slower warp of the block still reads this step's. The race detector reports
// the write after read.
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
    As[ty][tx] = (row < m && t + tx < k) ? A[row * k + t + tx] : 0.0f;
    Bs[ty][tx] = (t + ty < k && col < n) ? B[(t + ty) * n + col] : 0.0f;
    __syncthreads();  // every copy is in before anyone reads the tiles
    for (int i = 0; i < TILE; ++i) acc = acc + As[ty][i] * Bs[i][tx];
  }
  if (row < m && col < n) C[row * n + col] = acc;
}

void launch_matmul(const float* A, const float* B, float* C, int m, int n, int k) {
  const dim3 threads(TILE, TILE);
  const dim3 blocks(lab::blocks_for(n, TILE), lab::blocks_for(m, TILE));
  matmul<<<blocks, threads>>>(A, B, C, m, n, k);
}
