// fp16 LayerNorm, the way LightSeq's half kernel moves data: x, gamma, beta and out are
// __half (2 bytes a value), and every access is 16 bytes: one float4-sized load carries
// 8 halves, unpacked as 4 __half2 into float2 by __half22float2, and the sums, the
// mean, the variance and the normalisation all run in fp32; out is rounded to half
// once, packed by __floats2half2_rn. mean and rstd stay fp32 (the backward pass wants
// them exact). Otherwise layernorm_vectorized: a block per row, the row kept in shared
// memory (now as halves: half the bytes), the sum and sum of squares reduced together.
// Against layernorm_vectorized: half the global bytes and sectors for the same values
// (the point of fp16 activations: LayerNorm is bandwidth-bound), and half the memory
// instructions again (8 values per access, not 4). When cols % 8 != 0 the rows are not
// 16-byte aligned and the kernel takes a scalar __half path, as the fp32 one does.
// Inputs are the fp32 family's values, all exact in half (multiples of 1/64 or 1/128
// near 1), so the reference is the same; out is checked within half's rounding.
#include "kernels/harness.hpp"
#include "kernels/layernorm_common.cuh"
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <vector>

constexpr int kHalfBlock = 128;  // 4 warps per row
constexpr int kHalfWarps = kHalfBlock / 32;
constexpr int kHalfMaxCachedCols = 48 * 1024 / 2;

// 8 halves in one 16-byte access.
union Half8 {
  float4 raw;
  __half2 h[4];
};

__global__ void layernorm_half2(const __half* x, const __half* gamma, const __half* beta, __half* out, float* mean,
                                float* rstd, int cols) {
  extern __shared__ float4 row_cache8[];  // cols halves when `cached`
  __half* row_cache = reinterpret_cast<__half*>(row_cache8);
  __shared__ float part_sum[kHalfWarps], part_sq[kHalfWarps];
  const int row = blockIdx.x, lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const __half* xr = x + size_t(row) * cols;
  __half* outr = out + size_t(row) * cols;
  const bool cached = cols <= kHalfMaxCachedCols;
  const bool vec = cols % 8 == 0;
  const float4* xr8 = reinterpret_cast<const float4*>(xr);

  float sum = 0.0f, sq = 0.0f;
  if (vec) {
    for (int j = threadIdx.x; j < cols / 8; j += blockDim.x) {
      Half8 v;
      v.raw = xr8[j];
      if (cached) row_cache8[j] = v.raw;
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        const float2 f = __half22float2(v.h[k]);
        sum += f.x + f.y;
        sq += f.x * f.x + f.y * f.y;
      }
    }
  } else {
    for (int j = threadIdx.x; j < cols; j += blockDim.x) {
      const __half h = xr[j];
      if (cached) row_cache[j] = h;
      const float v = __half2float(h);
      sum += v;
      sq += v * v;
    }
  }
  sum = layernorm::warp_sum(sum);
  sq = layernorm::warp_sum(sq);
  if (lane == 0) part_sum[warp] = sum, part_sq[warp] = sq;
  __syncthreads();  // every warp's pair is written before anyone adds them
  sum = 0.0f, sq = 0.0f;
  for (int w = 0; w < kHalfWarps; ++w) sum += part_sum[w], sq += part_sq[w];
  const float mu = sum / cols;
  const float rs = rsqrtf(fmaxf(sq / cols - mu * mu, 0.0f) + kLayerNormEps);

  if (vec) {
    const float4* g8 = reinterpret_cast<const float4*>(gamma);
    const float4* b8 = reinterpret_cast<const float4*>(beta);
    float4* outr8 = reinterpret_cast<float4*>(outr);
    for (int j = threadIdx.x; j < cols / 8; j += blockDim.x) {
      Half8 v, g, b, o;
      v.raw = cached ? row_cache8[j] : xr8[j];
      g.raw = g8[j];
      b.raw = b8[j];
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        const float2 fv = __half22float2(v.h[k]), fg = __half22float2(g.h[k]), fb = __half22float2(b.h[k]);
        o.h[k] = __floats2half2_rn((fv.x - mu) * rs * fg.x + fb.x, (fv.y - mu) * rs * fg.y + fb.y);
      }
      outr8[j] = o.raw;
    }
  } else {
    for (int j = threadIdx.x; j < cols; j += blockDim.x) {
      const float v = __half2float(cached ? row_cache[j] : xr[j]);
      outr[j] = __float2half_rn((v - mu) * rs * __half2float(gamma[j]) + __half2float(beta[j]));
    }
  }
  if (threadIdx.x == 0) mean[row] = mu, rstd[row] = rs;
}

namespace {
using simt::kernels::Outputs;
using simt::kernels::Params;

std::vector<__half> to_half(const std::vector<float>& v) {
  std::vector<__half> h(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) h[i] = __float2half_rn(v[i]);  // exact: see the header
  return h;
}

template <class T>
T* upload(const std::vector<T>& v) {
  T* d;
  cudaMalloc(&d, v.size() * sizeof(T));
  cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}

Outputs run(const Params& p) {
  const int rows = int(p.integer("rows")), cols = int(p.integer("cols"));
  const std::size_t size = std::size_t(rows) * cols;
  const layernorm::Inputs in = layernorm::inputs(rows, cols);
  __half *d_x = upload(to_half(in.x)), *d_gamma = upload(to_half(in.gamma)), *d_beta = upload(to_half(in.beta));
  __half* d_out;
  float *d_mean, *d_rstd;
  cudaMalloc(&d_out, size * sizeof(__half));
  cudaMalloc(&d_mean, rows * sizeof(float));
  cudaMalloc(&d_rstd, rows * sizeof(float));
  const size_t shared = cols <= kHalfMaxCachedCols ? cols * sizeof(__half) : 0;
  layernorm_half2<<<rows, kHalfBlock, shared>>>(d_x, d_gamma, d_beta, d_out, d_mean, d_rstd, cols);
  std::vector<__half> out_h(size);
  std::vector<float> out(size), mean(rows), rstd(rows);
  cudaMemcpy(out_h.data(), d_out, size * sizeof(__half), cudaMemcpyDeviceToHost);
  cudaMemcpy(mean.data(), d_mean, rows * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(rstd.data(), d_rstd, rows * sizeof(float), cudaMemcpyDeviceToHost);
  for (void* d : {(void*)d_x, (void*)d_gamma, (void*)d_beta, (void*)d_out, (void*)d_mean, (void*)d_rstd}) cudaFree(d);
  for (std::size_t i = 0; i < size; ++i) out[i] = __half2float(out_h[i]);
  return {{{"out", out}, {"mean", mean}, {"rstd", rstd}}};
}

simt::kernels::Registration reg({"layernorm_half2",
                                 "fp16 LayerNorm, 8 halves per 16-byte access, fp32 math: half the bytes of fp32",
                                 layernorm::params(), run, layernorm::check_half});
}  // namespace
