// GEMV with fp8 weights (gemv_common.cuh): W = w_scale[row] * e4m3, one fp32 scale
// per output channel (amax / 448), x fp16.
//   - as gemv_fp16, a block of 8 warps owns 16 rows and stages x in shared memory;
//   - a warp walks its row 4 weights per lane: one __nv_fp8x4_e4m3 (4 bytes; 32 lanes
//     x 4 bytes = 128 bytes, 4 sectors per request) widened by <cuda_fp8.h> (on sm_89
//     and later a cvt to a half pair, then to float), and 4 halves of x from shared
//     memory (one 8-byte load); 4 FMAs in column order;
//   - the sums meet by __shfl_xor_sync; lane 0 applies the row's scale once:
//     y = sum * w_scale[row].
// The bytes of int8 (1 per weight), floating point instead of integers: no
// activation quantization, and the scale multiplies once per row.
// Run:  simt run gemv_fp8 --rows 2048 --cols 2048
#include "kernels/gemv_common.cuh"
#include "kernels/harness.hpp"
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

// W: rows x quads __nv_fp8x4_e4m3, x: quads uint2 (4 halves).
__global__ void gemv_fp8(const __nv_fp8x4_e4m3* W, const float* w_scale, const uint2* x, float* y, int rows,
                         int quads) {
  extern __shared__ uint2 x_quads[];  // the token's x, 4 halves per uint2
  for (int i = threadIdx.x; i < quads; i += blockDim.x) x_quads[i] = x[i];
  __syncthreads();
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int first = blockIdx.x * gemv::kRowsPerBlock;
  const int last = min(rows, first + gemv::kRowsPerBlock);
  for (int r = first + warp; r < last; r += gemv::kWarps) {
    const __nv_fp8x4_e4m3* w = W + size_t(r) * quads;
    float acc = 0.0f;
    for (int i = lane; i < quads; i += 32) {
      const float4 wf = static_cast<float4>(w[i]);
      const uint2 xv = x_quads[i];
      const float2 x01 = __half22float2(*reinterpret_cast<const half2*>(&xv.x));
      const float2 x23 = __half22float2(*reinterpret_cast<const half2*>(&xv.y));
      acc = fmaf(wf.x, x01.x, acc);
      acc = fmaf(wf.y, x01.y, acc);
      acc = fmaf(wf.z, x23.x, acc);
      acc = fmaf(wf.w, x23.y, acc);
    }
    acc = gemv::warp_sum(acc);
    if (lane == 0) y[r] = acc * w_scale[r];
  }
}

namespace {
using namespace simt::kernels;

Outputs run(const Params& p) {
  const gemv::Shape s = gemv::shape(p);
  const gemv::Fp8 q = gemv::to_fp8(s);
  __nv_fp8_e4m3* dw = gemv::upload(q.w);
  float* ds = gemv::upload(q.w_scale);
  half* dx = gemv::upload(q.x);
  float* dy;
  cudaMalloc(&dy, s.rows * sizeof(float));
  const int quads = q.ld / 4;
  gemv_fp8<<<gemv::blocks(s.rows), gemv::kThreads, quads * sizeof(uint2)>>>(
      reinterpret_cast<const __nv_fp8x4_e4m3*>(dw), ds, reinterpret_cast<const uint2*>(dx), dy, s.rows, quads);
  std::vector<float> y = gemv::download(dy, s.rows);
  cudaFree(dw);
  cudaFree(ds);
  cudaFree(dx);
  cudaFree(dy);
  return {{{"y", y}}};
}

Registration reg({"gemv_fp8", "decode GEMV, fp8 E4M3 weights (per-channel fp32 scale) dequantized by <cuda_fp8.h>, fp16 x",
                  gemv::params(), run, gemv::checker<gemv::Format::Fp8>});
}  // namespace
