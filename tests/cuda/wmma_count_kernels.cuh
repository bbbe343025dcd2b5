// The count_* kernels of the tensor-core validation: one warp each, measured with
// Nsight Compute on the H200 (docs/validation/data/wmma/ncu_wmma*_h200.csv, by
// tests/cuda/wmma_probe.cu) and counted by the simulator (tests/sim/test_wmma.cu).
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <cstdio>

namespace wmma_count {
using namespace nvcuda;

__global__ void count_f16_global_rowcol(const half* a, const half* b, float* d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}
__global__ void count_f16_global_colrow(const half* a, const half* b, float* d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, 16, wmma::mem_col_major);
}
__global__ void count_f16_global_ldm64(const half* a, const half* b, float* d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::load_matrix_sync(fc, d, 64, wmma::mem_row_major);
  wmma::load_matrix_sync(fa, a, 64);
  wmma::load_matrix_sync(fb, b, 64);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, 64, wmma::mem_row_major);
}
__global__ void count_f16_mma_x8(const half* a, const half* b, float* d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
#pragma unroll
  for (int i = 0; i < 8; ++i) wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}
__global__ void count_f16_shared(const half* a, const half* b, float* d) {
  __shared__ __align__(32) half sa[256], sb[256];
  __shared__ __align__(32) float sd[256];
  for (int i = threadIdx.x; i < 256; i += 32) sa[i] = a[i], sb[i] = b[i];
  __syncthreads();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, sa, 16);
  wmma::load_matrix_sync(fb, sb, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(sd, fc, 16, wmma::mem_row_major);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += 32) d[i] = sd[i];
}
__global__ void count_f16_shared_colrow(const half* a, const half* b, float* d) {
  __shared__ __align__(32) half sa[256], sb[256];
  __shared__ __align__(32) float sd[256];
  for (int i = threadIdx.x; i < 256; i += 32) sa[i] = a[i], sb[i] = b[i];
  __syncthreads();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::load_matrix_sync(fc, sd, 16, wmma::mem_col_major);
  wmma::load_matrix_sync(fa, sa, 16);
  wmma::load_matrix_sync(fb, sb, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(sd, fc, 16, wmma::mem_col_major);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += 32) d[i] = sd[i];
}
template <int M, int N, int K, class Frag, class Mem, class T>
__global__ void count_shape(const Mem* a, const Mem* b, T* d) {
  wmma::fragment<wmma::matrix_a, M, N, K, Frag, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, Frag, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, M, N, K, T> fc;
  wmma::fill_fragment(fc, T(0));
  wmma::load_matrix_sync(fa, a, K);
  wmma::load_matrix_sync(fb, b, K);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, N, wmma::mem_row_major);
}

inline void run_counts() {
  void *a, *b, *d;
  cudaMalloc(&a, 1 << 16);
  cudaMalloc(&b, 1 << 16);
  cudaMalloc(&d, 1 << 16);
  cudaMemset(a, 0, 1 << 16), cudaMemset(b, 0, 1 << 16), cudaMemset(d, 0, 1 << 16);
  auto* ha = static_cast<half*>(a);
  auto* hb = static_cast<half*>(b);
  auto* fd = static_cast<float*>(d);
  count_f16_global_rowcol<<<1, 32>>>(ha, hb, fd);
  count_f16_global_colrow<<<1, 32>>>(ha, hb, fd);
  count_f16_global_ldm64<<<1, 32>>>(ha, hb, fd);
  count_f16_mma_x8<<<1, 32>>>(ha, hb, fd);
  count_f16_shared<<<1, 32>>>(ha, hb, fd);
  count_f16_shared_colrow<<<1, 32>>>(ha, hb, fd);
  count_shape<16, 16, 16, half, half, half><<<1, 32>>>(ha, hb, static_cast<half*>(d));
  count_shape<32, 8, 16, half, half, float><<<1, 32>>>(ha, hb, fd);
  count_shape<8, 32, 16, half, half, float><<<1, 32>>>(ha, hb, fd);
  count_shape<16, 16, 16, __nv_bfloat16, __nv_bfloat16, float>
      <<<1, 32>>>(static_cast<__nv_bfloat16*>(a), static_cast<__nv_bfloat16*>(b), fd);
  count_shape<16, 16, 16, signed char, signed char, int>
      <<<1, 32>>>(static_cast<signed char*>(a), static_cast<signed char*>(b), static_cast<int*>(d));
  count_shape<32, 8, 16, unsigned char, unsigned char, int>
      <<<1, 32>>>(static_cast<unsigned char*>(a), static_cast<unsigned char*>(b), static_cast<int*>(d));
  count_shape<16, 16, 8, wmma::precision::tf32, float, float>
      <<<1, 32>>>(static_cast<float*>(a), static_cast<float*>(b), fd);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("count kernels: %s\n", cudaGetErrorString(e));
}

}  // namespace wmma_count
