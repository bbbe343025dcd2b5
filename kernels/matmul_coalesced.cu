// Batched matmul, coalesced: the naive kernel with the thread mapping swapped so
// that threadIdx.x walks along C's columns. A warp now holds 32 neighbouring
// columns of one row, so
//   A[row][k]: one address for the whole warp  -> 1 sector (a broadcast),
//   B[k][col]: 32 neighbouring floats          -> 4 sectors,
//   C[row][col] store: 32 neighbouring floats  -> 4 sectors,
// i.e. 5 sectors per k step per warp instead of the naive kernel's 33. Every
// thread still reads its whole row and column from global memory, k loads
// each: the tiled kernel cuts that by reusing data through shared memory.
#include "kernels/harness.hpp"
#include "kernels/matmul_common.cuh"
#include <cuda_runtime.h>

__global__ void matmul_coalesced(const float* A, const float* B, float* C, int m, int n, int k) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= m || col >= n) return;
  const float* a = A + blockIdx.z * m * k + row * k;
  const float* b = B + blockIdx.z * k * n + col;
  float acc = 0.0f;
  for (int i = 0; i < k; ++i) acc = fmaf(a[i], b[i * n], acc);
  C[blockIdx.z * m * n + row * n + col] = acc;
}

namespace {

using namespace simt::kernels;

Outputs run(const Params& p) {
  return matmul::run(p, [](const float* A, const float* B, float* C, matmul::Problem pr) {
    const dim3 block(32, 8);  // x: 32 columns, y: 8 rows
    const dim3 grid((pr.n + block.x - 1) / block.x, (pr.m + block.y - 1) / block.y, pr.batch);
    matmul_coalesced<<<grid, block>>>(A, B, C, pr.m, pr.n, pr.k);
  });
}

Registration reg({"matmul_coalesced", "batched C = A @ B, thread per output, threadIdx.x along columns: coalesced",
                  matmul::params(), run, matmul::check});

}  // namespace
