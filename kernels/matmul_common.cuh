// Matmul family: batched C[b] = A[b] @ B[b], fp32 (matmul_wmma: fp16 in, fp32 out).
// The fp32 rungs follow Simon Boehm's "How to optimize a CUDA matmul kernel for
// cuBLAS-like performance" (docs/kernels/gemm.md sets our table beside his).
//   matmul_naive.cu         a thread per output, threadIdx.x along rows: loads of A and
//                           stores of C uncoalesced (32 sectors per request)
//   matmul_coalesced.cu     threadIdx.x along columns: coalesced, every operand from global
//   matmul_tiled.cu         TILE x TILE shared-memory tiles (TILE 16 or 32): each global
//                           element loaded once per tile, the inner loop in shared memory
//   matmul_blocktile_1d.cu  64 x 64 block tiles, a thread computes a column of 8 outputs:
//                           one shared load of B serves 8 FFMAs (9 loads per 8 FFMAs, not
//                           16), and the wider tiles halve the global loads again
//   matmul_blocktile_2d.cu  128 x 128 block tiles, an 8 x 8 register tile per thread (outer
//                           products): 16 shared loads per 64 FFMAs; global loads halved again
//   matmul_vectorized.cu    2-D tiling with A transposed in shared memory, so both register
//                           loads are LDS.128 (4 shared load instructions per 64 FFMAs), and
//                           float4 global loads and stores: a quarter of the instructions;
//                           needs k % 4 == 0 and n % 4 == 0, else scalar global accesses
//   matmul_warptile.cu      4 warps of 64 x 64 warp tiles, 8 x 16 outputs per thread: 6 LDS.128
//                           per 128 FFMAs, conflict-free shared loads, every C sector written
//                           once; the same float4 rule as matmul_vectorized
//   matmul_wmma.cu          fp16 inputs, tensor cores (wmma m16n16k16, fp32 accumulate):
//                           a warp's 16x16x16 product is one mma_sync, not 4096 FFMAs
// Every rung handles any batch, m, n, k (tiles zero-padded past the edges, stores
// bounds-checked) and sums each output k = 0, 1, 2, ... with fmaf, so the outputs are
// the same floats on the simulator and on a GPU (nvcc --fmad=false).
//
// Run:  simt run matmul_tiled --m 256 --n 256 --k 256 --tile 16
//       simt table matmul_tiled matmul_blocktile_1d matmul_blocktile_2d matmul_vectorized matmul_warptile
// CPU reference: Eigen, below.
//
// Host side shared by the batched matmul variants: C[b] = A[b] @ B[b] with A
// (batch, m, k), B (batch, k, n), C (batch, m, n), all row-major and contiguous.
// Each variant's file holds its kernel and how it is launched; the problem,
// the inputs and the Eigen reference are the same for all, so they live here.
#pragma once
#include "kernels/harness.hpp"
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <vector>

#if !defined(__CUDACC__)
#include <Eigen/Dense>
#endif

namespace matmul {

using namespace simt::kernels;

struct Problem {
  int batch, m, n, k;
};

inline Problem problem(const Params& p) {
  Problem pr{int(p.integer("batch")), int(p.integer("m")), int(p.integer("n")), int(p.integer("k"))};
  if (pr.batch < 1 || pr.m < 1 || pr.n < 1 || pr.k < 1)
    throw std::invalid_argument("--batch, --m, --n and --k must be positive");
  return pr;
}

inline std::vector<Param> params() {
  return {{"batch", "1", "number of independent products"},
          {"m", "256", "rows of A and C"},
          {"n", "256", "columns of B and C"},
          {"k", "256", "columns of A, rows of B"}};
}

// The 4 floats of a row at p for the float4 rungs (matmul_vectorized, matmul_warptile),
// zero past the matrix's last row (!row_in) or past the row's end (`left` floats
// remain in the row from p). kVec: one 16-byte load (LDG.128); p is 16-byte aligned
// and left is 0 or at least 4 (k and n multiples of 4). Otherwise up to 4 scalar loads.
// Each path builds its result on its own (no float4 returned from two places), so the
// simulator's compiler front end sees exactly one 16-byte load or the scalar ones.
__device__ inline float4 load4_vec(const float* p, bool in) {
  if (in) return *reinterpret_cast<const float4*>(p);
  return make_float4(0.0f, 0.0f, 0.0f, 0.0f);
}
__device__ inline float4 load4_scalar(const float* p, bool row_in, int left) {
  float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  if (row_in && left > 0) {
    v.x = p[0];
    if (left > 1) v.y = p[1];
    if (left > 2) v.z = p[2];
    if (left > 3) v.w = p[3];
  }
  return v;
}
template <bool kVec>
__device__ inline float4 load4(const float* p, bool row_in, int left) {
  if constexpr (kVec) return load4_vec(p, row_in && left > 0);
  else return load4_scalar(p, row_in, left);
}

// Uploads A and B, calls launch(A, B, C, problem) and returns C.
template <class Launch>
Outputs run(const Params& p, Launch&& launch) {
  const Problem pr = problem(p);
  const std::size_t a_size = std::size_t(pr.batch) * pr.m * pr.k, b_size = std::size_t(pr.batch) * pr.k * pr.n,
                    c_size = std::size_t(pr.batch) * pr.m * pr.n;
  const std::vector<float> a = test_values(a_size, 1), b = test_values(b_size, 2);
  float *da, *db, *dc;
  cudaMalloc(&da, a_size * sizeof(float));
  cudaMalloc(&db, b_size * sizeof(float));
  cudaMalloc(&dc, c_size * sizeof(float));
  cudaMemcpy(da, a.data(), a_size * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), b_size * sizeof(float), cudaMemcpyHostToDevice);
  launch(da, db, dc, pr);
  std::vector<float> c(c_size);
  cudaMemcpy(c.data(), dc, c_size * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  return {{{"c", c}}};
}

#if !defined(__CUDACC__)
// Inputs are multiples of 1/64, products multiples of 1/4096; for k up to
// ~4096 every partial sum is exact in float, so any order of the k terms gives
// the same bits and the comparison can demand equality.
inline Check check(const Params& p, const Outputs& out) {
  const Problem pr = problem(p);
  using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const std::vector<float> a = test_values(std::size_t(pr.batch) * pr.m * pr.k, 1),
                           b = test_values(std::size_t(pr.batch) * pr.k * pr.n, 2);
  std::vector<float> want(std::size_t(pr.batch) * pr.m * pr.n);
  for (int i = 0; i < pr.batch; ++i) {
    Eigen::Map<const Matrix> A(a.data() + std::size_t(i) * pr.m * pr.k, pr.m, pr.k);
    Eigen::Map<const Matrix> B(b.data() + std::size_t(i) * pr.k * pr.n, pr.k, pr.n);
    Eigen::Map<Matrix>(want.data() + std::size_t(i) * pr.m * pr.n, pr.m, pr.n).noalias() = A * B;
  }
  return compare(out.at("c").data, want, pr.k <= 4096 ? 0.0 : 1e-3, "C = A @ B per batch");
}
#else
inline constexpr std::nullptr_t check = nullptr;  // the reference runs in the simulator build only
#endif

}  // namespace matmul
