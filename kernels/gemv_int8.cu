// GEMV with int8 weights (gemv_common.cuh): W = w_scale[row] * q, q int8 per output
// channel, and the token's x quantized to int8 with one scale (x_scale * xq). Two
// launches: quantize_x_int8 (one block: amax, scale, round; x read twice, 4 KiB),
// then the GEMV:
//   - as gemv_fp16, a block of 8 warps owns 16 rows and stages x (int8, 1 byte per
//     element) in shared memory once;
//   - a warp walks its row 4 weights at a time: each lane loads one int (4 packed
//     bytes; 32 lanes x 4 bytes = 128 bytes, 4 sectors per request) and one int of x,
//     and __dp4a multiplies the four byte pairs and adds them to an int32 sum in one
//     instruction (IDP.4A): 4 multiply-adds per instruction, no FP at all;
//   - the int32 sums meet by __shfl_xor_sync (exact: any order gives the same bits);
//     lane 0 scales once: y = float(sum) * w_scale[row] * x_scale.
// Half the bytes of fp16 per weight; the products are exact, the error is the
// quantization's (the reference's detail says how much).
// Run:  simt run gemv_int8 --rows 2048 --cols 2048
#include "kernels/gemv_common.cuh"
#include "kernels/harness.hpp"
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

// Step 1, one block: the token's x (fp16) quantized to int8 with one scale,
// x_scale = amax / 127 (1 for an all-zero x), xq = round-to-nearest-even(x / x_scale)
// in [-127, 127], zero past cols; the same float operations as the host's
// gemv::to_int8, so both give the same bits. In a model this step runs once per token
// and per input vector, shared by every layer reading that vector (or fused into the
// kernel that produces x).
__global__ void quantize_x_int8(const half* x, int cols, int ld, signed char* xq, float* x_scale) {
  __shared__ float warp_max[gemv::kWarps];
  float m = 0.0f;
  for (int i = threadIdx.x; i < cols; i += blockDim.x) m = fmaxf(m, fabsf(__half2float(x[i])));
  for (int offset = 16; offset > 0; offset /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, offset));
  if (threadIdx.x % 32 == 0) warp_max[threadIdx.x / 32] = m;
  __syncthreads();
  float amax = warp_max[0];
  for (int w = 1; w < gemv::kWarps; ++w) amax = fmaxf(amax, warp_max[w]);
  const float scale = amax > 0.0f ? amax / 127.0f : 1.0f;
  if (threadIdx.x == 0) *x_scale = scale;
  for (int i = threadIdx.x; i < ld; i += blockDim.x)
    xq[i] = i < cols ? (signed char)max(-127, min(127, __float2int_rn(__half2float(x[i]) / scale))) : 0;
}

// Step 2. W: rows x words ints (4 int8 each), x: words ints, x_scale: one float.
__global__ void gemv_int8(const int* W, const float* w_scale, const int* x, const float* x_scale, float* y, int rows,
                          int words) {
  extern __shared__ int x_quads[];  // the token's quantized x, 4 bytes per int
  __shared__ float token_scale;
  for (int i = threadIdx.x; i < words; i += blockDim.x) x_quads[i] = x[i];
  if (threadIdx.x == 0) token_scale = *x_scale;
  __syncthreads();
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int first = blockIdx.x * gemv::kRowsPerBlock;
  const int last = min(rows, first + gemv::kRowsPerBlock);
  for (int r = first + warp; r < last; r += gemv::kWarps) {
    const int* w = W + size_t(r) * words;
    int acc = 0;
    for (int i = lane; i < words; i += 32) acc = __dp4a(w[i], x_quads[i], acc);
    acc = gemv::warp_sum(acc);
    if (lane == 0) y[r] = float(acc) * w_scale[r] * token_scale;
  }
}

namespace {
using namespace simt::kernels;

Outputs run(const Params& p) {
  const gemv::Shape s = gemv::shape(p);
  const gemv::Int8 q = gemv::to_int8(s);
  const gemv::Fp16 h = gemv::to_fp16(gemv::Shape{1, s.cols});  // x in fp16, as the other versions get it
  std::int8_t* dw = gemv::upload(q.w);
  half* dx = gemv::upload(h.x);
  float* ds = gemv::upload(q.w_scale);
  signed char* dxq;
  float *dxs, *dy;
  cudaMalloc(&dxq, q.ld);
  cudaMalloc(&dxs, sizeof(float));
  cudaMalloc(&dy, s.rows * sizeof(float));
  const int words = q.ld / 4;
  quantize_x_int8<<<1, gemv::kThreads>>>(dx, s.cols, q.ld, dxq, dxs);
  gemv_int8<<<gemv::blocks(s.rows), gemv::kThreads, words * sizeof(int)>>>(
      reinterpret_cast<const int*>(dw), ds, reinterpret_cast<const int*>(dxq), dxs, dy, s.rows, words);
  std::vector<float> y = gemv::download(dy, s.rows);
  cudaFree(dw);
  cudaFree(dx);
  cudaFree(ds);
  cudaFree(dxq);
  cudaFree(dxs);
  cudaFree(dy);
  return {{{"y", y}}};
}

Registration reg({"gemv_int8", "decode GEMV, int8 weights (per-channel scale), x quantized to int8 on the device (per-token scale): __dp4a",
                  gemv::params(), run, gemv::checker<gemv::Format::Int8>});
}  // namespace
