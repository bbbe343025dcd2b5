// FlashAttention-2's forward on the tensor cores: fp16 Q, K, V, fp32 accumulate
// (nvcuda::wmma, m16n16k16), the step attention_flash -> matmul_wmma took for
// matmuls. A block of 4 warps owns 64 query rows, a warp 16 of them, for the
// whole kernel; K and V come through shared memory (fp16, half attention_flash's
// bytes) in tiles of 16 keys. Per key tile and warp:
//   - S = Q K^T: the warp's Q rows stay in registers as d/16 matrix_a fragments
//     (loaded once), K^T is K's tile read as a col_major matrix_b: d/16 mma_sync
//     for the warp's 16 x 16 block of S, stored to the warp's shared scratch;
//   - online softmax by lanes 0-15, a row each: the row max, alpha = exp(m_old -
//     m_new), P = exp(s * scale - m_new) summed in fp32 and stored as fp16 for the
//     second product (FlashAttention-2 does the same);
//   - the warp's fp32 output rows live in shared memory: scaled by alpha, loaded
//     into accumulator fragments, O += P V (d/16 mma_sync), stored back. (An
//     accumulator fragment's layout is the hardware's, so the per-row rescale
//     goes through memory.)
// At the end O = o / l goes out coalesced and L = m + log(l). Causal: the block
// stops at the key tile holding its last query; a warp whose 16 rows all precede
// a tile skips it. Shared memory for d = 128: 32 KiB of output rows (they first
// stage Q), 4 KiB each of K and V, 6 KiB of S and P scratch.
#include "kernels/attention_common.cuh"
#include "kernels/harness.hpp"
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include <vector>

namespace {
constexpr int kWarps = 4;
constexpr int kRows = 16 * kWarps;  // query rows per block
constexpr int kKeys = 16;           // keys per K/V tile
constexpr int kThreads = 32 * kWarps;
}  // namespace

template <int D>
__global__ void attention_flash_wmma(const half* Q, const half* K, const half* V, float* O, float* L, int n,
                                     float scale, bool causal) {
  using namespace nvcuda;
  __shared__ __align__(32) float Os[kRows * D];  // Q (as fp16) first, then the output rows
  __shared__ __align__(32) half Ks[kKeys * D];
  __shared__ __align__(32) half Vs[kKeys * D];
  __shared__ __align__(32) float Ss[kWarps][16 * kKeys];
  __shared__ __align__(32) half Ps[kWarps][16 * kKeys];
  __shared__ float row_alpha[kRows], row_l[kRows];
  const size_t head = size_t(blockIdx.y) * n * D;
  Q += head, K += head, V += head, O += head;
  L += size_t(blockIdx.y) * n;
  const int q0 = blockIdx.x * kRows, rows = min(kRows, n - q0);
  const int t = threadIdx.x, warp = t / 32, lane = t % 32, warp_row0 = q0 + 16 * warp;
  const half2 zero = __floats2half2_rn(0.0f, 0.0f);

  // Q tile in as pairs of halves (rows past n are zeros), then into fragments.
  half* Qh = reinterpret_cast<half*>(Os);
  for (int e = t; e < kRows * D / 2; e += kThreads)
    reinterpret_cast<half2*>(Qh)[e] =
        2 * e / D < rows ? reinterpret_cast<const half2*>(Q + size_t(q0) * D)[e] : zero;
  __syncthreads();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> qf[D / 16];
  for (int c = 0; c < D / 16; ++c) wmma::load_matrix_sync(qf[c], Qh + warp * 16 * D + c * 16, D);
  __syncthreads();
  for (int e = t; e < kRows * D; e += kThreads) Os[e] = 0.0f;

  float m = -INFINITY, l = 0.0f;  // lanes 0-15: row warp_row0 + lane
  const int key_end = causal ? q0 + rows : n;
  for (int k0 = 0; k0 < key_end; k0 += kKeys) {
    const int keys = min(kKeys, n - k0);
    for (int e = t; e < kKeys * D / 2; e += kThreads) {
      const bool in = 2 * e / D < keys;
      reinterpret_cast<half2*>(Ks)[e] = in ? reinterpret_cast<const half2*>(K + size_t(k0) * D)[e] : zero;
      reinterpret_cast<half2*>(Vs)[e] = in ? reinterpret_cast<const half2*>(V + size_t(k0) * D)[e] : zero;
    }
    __syncthreads();
    if (warp_row0 < n && (!causal || k0 <= warp_row0 + 15)) {
      wmma::fragment<wmma::accumulator, 16, 16, 16, float> sacc;
      wmma::fill_fragment(sacc, 0.0f);
      for (int c = 0; c < D / 16; ++c) {
        wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> kf;  // K^T
        wmma::load_matrix_sync(kf, Ks + c * 16, D);
        wmma::mma_sync(sacc, qf[c], kf, sacc);
      }
      wmma::store_matrix_sync(Ss[warp], sacc, kKeys, wmma::mem_row_major);
      __syncwarp();
      if (lane < 16) {
        const int i = warp_row0 + lane;
        const int visible = i >= n ? 0 : causal ? min(keys, i - k0 + 1) : keys;
        float tile_max = -INFINITY;
        for (int j = 0; j < visible; ++j) tile_max = fmaxf(tile_max, Ss[warp][lane * kKeys + j] * scale);
        const float m_new = fmaxf(m, tile_max);
        const float alpha = m_new == -INFINITY ? 1.0f : expf(m - m_new);
        l *= alpha;
        for (int j = 0; j < kKeys; ++j) {
          const float p = j < visible ? expf(Ss[warp][lane * kKeys + j] * scale - m_new) : 0.0f;
          l += p;
          Ps[warp][lane * kKeys + j] = __float2half(p);
        }
        m = m_new;
        row_alpha[16 * warp + lane] = alpha;
      }
      __syncwarp();
      float* o = Os + warp * 16 * D;
      for (int e = lane; e < 16 * D; e += 32) o[e] *= row_alpha[16 * warp + e / D];
      __syncwarp();
      wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> pf;
      wmma::load_matrix_sync(pf, Ps[warp], kKeys);
      for (int c = 0; c < D / 16; ++c) {
        wmma::fragment<wmma::accumulator, 16, 16, 16, float> oacc;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> vf;
        wmma::load_matrix_sync(oacc, o + c * 16, D, wmma::mem_row_major);
        wmma::load_matrix_sync(vf, Vs + c * 16, D);
        wmma::mma_sync(oacc, pf, vf, oacc);
        wmma::store_matrix_sync(o + c * 16, oacc, D, wmma::mem_row_major);
      }
    }
    __syncthreads();
  }

  if (lane < 16) {
    row_l[16 * warp + lane] = l;
    if (warp_row0 + lane < n) L[warp_row0 + lane] = m + logf(l);
  }
  __syncthreads();
  for (int e = t; e < rows * D; e += kThreads) O[size_t(q0) * D + e] = Os[e] / row_l[e / D];
}

namespace {

using namespace simt::kernels;

half* upload_half(const std::vector<float>& v) {
  std::vector<half> h(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) h[i] = __float2half(v[i]);  // exact: see attention::inputs
  half* d;
  cudaMalloc(&d, h.size() * sizeof(half));
  cudaMemcpy(d, h.data(), h.size() * sizeof(half), cudaMemcpyHostToDevice);
  return d;
}

Outputs run(const Params& p) {
  const attention::Shape s = attention::shape(p);
  const attention::Inputs in = attention::inputs(s);
  half *q = upload_half(in.q), *k = upload_half(in.k), *v = upload_half(in.v);
  float *o, *l;
  cudaMalloc(&o, s.size() * sizeof(float));
  cudaMalloc(&l, s.rows() * sizeof(float));
  const dim3 grid((s.n + kRows - 1) / kRows, s.bh());
  if (s.d == 64)
    attention_flash_wmma<64><<<grid, kThreads>>>(q, k, v, o, l, s.n, s.scale, s.causal);
  else
    attention_flash_wmma<128><<<grid, kThreads>>>(q, k, v, o, l, s.n, s.scale, s.causal);
  Outputs out{{{"o", attention::download(o, s.size())}, {"l", attention::download(l, s.rows())}}};
  for (half* b : {q, k, v}) cudaFree(b);
  cudaFree(o);
  cudaFree(l);
  return out;
}

Registration reg({"attention_flash_wmma",
                  "FlashAttention-2 forward on the tensor cores: fp16 Q/K/V, wmma 16x16x16 for QK^T and PV, fp32 "
                  "accumulate and softmax",
                  attention::params(), run, attention::check_forward_fp16});

}  // namespace
