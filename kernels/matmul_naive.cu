// Batched matmul, naive: one thread per element of C, threadIdx.x walking down
// C's rows. That is the poor choice for row-major data: the 32 lanes of a warp
// hold 32 different rows at the same column, so
//   A[row][k]: 32 addresses k floats apart      -> 32 sectors per request,
//   B[k][col]: one address for the whole warp   ->  1 sector (a broadcast),
//   C[row][col] store: 32 rows apart            -> 32 sectors per request,
// i.e. 33 sectors per k step per warp, of which 4 + 4 bytes per lane are used.
#include "kernels/harness.hpp"
#include "kernels/matmul_common.cuh"
#include <cuda_runtime.h>

__global__ void matmul_naive(const float* A, const float* B, float* C, int m, int n, int k) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  const int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= m || col >= n) return;
  const float* a = A + blockIdx.z * m * k + row * k;  // this thread's row of A
  const float* b = B + blockIdx.z * k * n + col;      // and column of B
  float acc = 0.0f;
  for (int i = 0; i < k; ++i) acc = fmaf(a[i], b[i * n], acc);
  C[blockIdx.z * m * n + row * n + col] = acc;
}

namespace {

using namespace simt::kernels;

Outputs run(const Params& p) {
  return matmul::run(p, [](const float* A, const float* B, float* C, matmul::Problem pr) {
    const dim3 block(32, 8);  // x: 32 rows, y: 8 columns
    const dim3 grid((pr.m + block.x - 1) / block.x, (pr.n + block.y - 1) / block.y, pr.batch);
    matmul_naive<<<grid, block>>>(A, B, C, pr.m, pr.n, pr.k);
  });
}

Registration reg({"matmul_naive", "batched C = A @ B, thread per output, threadIdx.x along rows: uncoalesced A and C",
                  matmul::params(), run, matmul::check});

}  // namespace
