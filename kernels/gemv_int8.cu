// GEMV with int8 weights (gemv_common.cuh): W = w_scale[row] * q, q int8 per output
// channel, and the token's x quantized to int8 with one scale (x_scale * xq).
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
#include <cuda_runtime.h>

#include <cstdint>

// W: rows x words ints (4 int8 each), x: words ints.
__global__ void gemv_int8(const int* W, const float* w_scale, const int* x, float x_scale, float* y, int rows,
                          int words) {
  extern __shared__ int x_quads[];  // the token's quantized x, 4 bytes per int
  for (int i = threadIdx.x; i < words; i += blockDim.x) x_quads[i] = x[i];
  __syncthreads();
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int first = blockIdx.x * gemv::kRowsPerBlock;
  const int last = min(rows, first + gemv::kRowsPerBlock);
  for (int r = first + warp; r < last; r += gemv::kWarps) {
    const int* w = W + size_t(r) * words;
    int acc = 0;
    for (int i = lane; i < words; i += 32) acc = __dp4a(w[i], x_quads[i], acc);
    acc = gemv::warp_sum(acc);
    if (lane == 0) y[r] = float(acc) * w_scale[r] * x_scale;
  }
}

namespace {
using namespace simt::kernels;

Outputs run(const Params& p) {
  const gemv::Shape s = gemv::shape(p);
  const gemv::Int8 q = gemv::to_int8(s);
  std::int8_t* dw = gemv::upload(q.w);
  std::int8_t* dx = gemv::upload(q.x);
  float* ds = gemv::upload(q.w_scale);
  float* dy;
  cudaMalloc(&dy, s.rows * sizeof(float));
  const int words = q.ld / 4;
  gemv_int8<<<gemv::blocks(s.rows), gemv::kThreads, words * sizeof(int)>>>(
      reinterpret_cast<const int*>(dw), ds, reinterpret_cast<const int*>(dx), q.x_scale, dy, s.rows, words);
  std::vector<float> y = gemv::download(dy, s.rows);
  cudaFree(dw);
  cudaFree(dx);
  cudaFree(ds);
  cudaFree(dy);
  return {{{"y", y}}};
}

Registration reg({"gemv_int8", "decode GEMV, int8 weights (per-channel scale) and int8 x (per-token scale): __dp4a",
                  gemv::params(), run, gemv::checker<gemv::Format::Int8>});
}  // namespace
