// GEMV with int4 weights, GPTQ-style groups (gemv_common.cuh): within each group of
// 128 weights along a row, W = scale * (q - zero), q a 4-bit integer, scale and zero
// one half2 per group; 8 nibbles per uint32 (nibble j of word i is column 8 i + j).
// Weight-only quantization: x stays fp16.
//   - as gemv_fp16, a block of 8 warps owns 16 rows and stages x in shared memory;
//   - a warp walks its row a word (8 weights) per lane: 32 lanes x 4 bytes = 128
//     bytes of W per request, 4 sectors, for 256 weights (gemv_fp16 reads 64 per
//     request); the lane also loads its group's half2 (16 lanes share a group: one
//     request, one sector for the warp) and 8 halves of x (one 16-byte shared load);
//   - each nibble is dequantized exactly in float (an fp16 scale times an integer
//     below 16 has at most 16 significant bits) and added with an FMA, in column
//     order; the sums meet by __shfl_xor_sync, lane 0 writes y[row].
// A quarter of fp16's bytes for W, plus 4 bytes per 128 weights for scale and zero.
// Run:  simt run gemv_int4 --rows 2048 --cols 2048
#include "kernels/gemv_common.cuh"
#include "kernels/harness.hpp"
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

// W: rows x words uint32, scale_zero: rows x groups half2, x: words uint4 (8 halves).
__global__ void gemv_int4(const unsigned* W, const half2* scale_zero, const uint4* x, float* y, int rows, int words,
                          int groups) {
  extern __shared__ uint4 x_octets[];  // the token's x, 8 halves per uint4
  for (int i = threadIdx.x; i < words; i += blockDim.x) x_octets[i] = x[i];
  __syncthreads();
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int first = blockIdx.x * gemv::kRowsPerBlock;
  const int last = min(rows, first + gemv::kRowsPerBlock);
  for (int r = first + warp; r < last; r += gemv::kWarps) {
    const unsigned* w = W + size_t(r) * words;
    const half2* sz = scale_zero + size_t(r) * groups;
    float acc = 0.0f;
    for (int i = lane; i < words; i += 32) {
      const unsigned q = w[i];
      const float2 g = __half22float2(sz[i / (gemv::kGroup / 8)]);  // (scale, zero)
      const uint4 xv = x_octets[i];
      const unsigned halves[4] = {xv.x, xv.y, xv.z, xv.w};
      for (int k = 0; k < 4; ++k) {
        const float2 xf = __half22float2(*reinterpret_cast<const half2*>(&halves[k]));
        const float w0 = g.x * (float((q >> (8 * k)) & 15u) - g.y);
        const float w1 = g.x * (float((q >> (8 * k + 4)) & 15u) - g.y);
        acc = fmaf(w0, xf.x, acc);
        acc = fmaf(w1, xf.y, acc);
      }
    }
    acc = gemv::warp_sum(acc);
    if (lane == 0) y[r] = acc;
  }
}

namespace {
using namespace simt::kernels;

Outputs run(const Params& p) {
  const gemv::Shape s = gemv::shape(p);
  const gemv::Int4 q = gemv::to_int4(s);
  std::uint32_t* dw = gemv::upload(q.w);
  half2* dsz = gemv::upload(q.scale_zero);
  half* dx = gemv::upload(q.x);
  float* dy;
  cudaMalloc(&dy, s.rows * sizeof(float));
  gemv_int4<<<gemv::blocks(s.rows), gemv::kThreads, q.words * sizeof(uint4)>>>(
      dw, dsz, reinterpret_cast<const uint4*>(dx), dy, s.rows, q.words, q.groups);
  std::vector<float> y = gemv::download(dy, s.rows);
  cudaFree(dw);
  cudaFree(dsz);
  cudaFree(dx);
  cudaFree(dy);
  return {{{"y", y}}};
}

Registration reg({"gemv_int4", "decode GEMV, int4 weights in GPTQ-style groups of 128 (fp16 scale and zero), fp16 x",
                  gemv::params(), run, gemv::checker<gemv::Format::Int4>});
}  // namespace
