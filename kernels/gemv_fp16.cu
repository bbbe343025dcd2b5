// GEMV with fp16 weights, the baseline of the quantization ladder (gemv_common.cuh):
// y = W x, W rows x cols in fp16, x in fp16, fp32 accumulation.
//   - a block of 8 warps owns 16 rows; its threads first copy x into shared memory
//     (once per block, not once per row), then each warp takes a row at a time;
//   - a warp walks its row in half2 loads: 32 lanes x 4 bytes = 128 consecutive
//     bytes, 4 sectors per request; each lane widens the pair and adds w * x into a
//     float with two FMAs, in a fixed order (lane's own columns, first to last);
//   - the 32 partial sums meet by __shfl_xor_sync (a butterfly: every lane ends with
//     the same bits), lane 0 writes y[row].
// Bytes per token: 2 per weight (W), plus x once per 16 rows.
// Run:  simt run gemv_fp16 --rows 2048 --cols 2048
#include "kernels/gemv_common.cuh"
#include "kernels/harness.hpp"
#include <cuda_fp16.h>
#include <cuda_runtime.h>

// W: rows x ld halves (ld even), x: ld halves; pairs = ld / 2.
__global__ void gemv_fp16(const half2* W, const half2* x, float* y, int rows, int pairs) {
  extern __shared__ half2 x_pairs[];  // the token's x, pairs half2
  for (int i = threadIdx.x; i < pairs; i += blockDim.x) x_pairs[i] = x[i];
  __syncthreads();
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int first = blockIdx.x * gemv::kRowsPerBlock;
  const int last = min(rows, first + gemv::kRowsPerBlock);
  for (int r = first + warp; r < last; r += gemv::kWarps) {
    const half2* w = W + size_t(r) * pairs;
    float acc = 0.0f;
    for (int i = lane; i < pairs; i += 32) {
      const float2 wf = __half22float2(w[i]), xf = __half22float2(x_pairs[i]);
      acc = fmaf(wf.x, xf.x, acc);
      acc = fmaf(wf.y, xf.y, acc);
    }
    acc = gemv::warp_sum(acc);
    if (lane == 0) y[r] = acc;
  }
}

namespace {
using namespace simt::kernels;

Outputs run(const Params& p) {
  const gemv::Shape s = gemv::shape(p);
  const gemv::Fp16 q = gemv::to_fp16(s);
  half* dw = gemv::upload(q.w);
  half* dx = gemv::upload(q.x);
  float* dy;
  cudaMalloc(&dy, s.rows * sizeof(float));
  const int pairs = q.ld / 2;
  gemv_fp16<<<gemv::blocks(s.rows), gemv::kThreads, pairs * sizeof(half2)>>>(
      reinterpret_cast<const half2*>(dw), reinterpret_cast<const half2*>(dx), dy, s.rows, pairs);
  std::vector<float> y = gemv::download(dy, s.rows);
  cudaFree(dw);
  cudaFree(dx);
  cudaFree(dy);
  return {{{"y", y}}};
}

Registration reg({"gemv_fp16", "decode GEMV y = W x, fp16 weights: warp per row, half2 loads, fp32 accumulate",
                  gemv::params(), run, gemv::checker<gemv::Format::Fp16>});
}  // namespace
