// FlashAttention-2's forward in fp32 (kernels/attention_common.cuh lists the
// family): attention_flash.cu registers it, attention_flash_backward.cu runs it
// for the O and L its backward needs.
//
// Grid (query tiles of 32, heads); a block of 8 warps, each owning 4 query rows
// from start to end, so the phases of a key tile need no barrier between them,
// only __syncwarp; the block synchronises only around the K/V tile it shares.
//   - The Q tile comes in once, coalesced, into shared memory (rows padded to
//     d + 1 words: the two rows a warp reads at once fall in different banks).
//   - K and V stream through shared memory in tiles of 16 keys (K padded the same
//     way: lane j reads key j, bank (j + c) % 32).
//   - S phase: lanes 0-15 take the warp's rows 0 and 2, lanes 16-31 rows 1 and 3,
//     lane j key j: s = q.k_j * scale (each K word read once for both rows); the tile's row max and sum by shuffles within 16 lanes;
//     online softmax as FlashAttention-2 has it: the running max m and sum l are
//     kept, and the output is rescaled by alpha = exp(m_old - m_new), not divided
//     by l until the end. P and alpha go to shared memory for the warp's own rows.
//   - PV phase: lane c owns columns c, c + 32, ... of the warp's 4 rows, the
//     output tile in registers: o = o * alpha + sum_j P[r][j] V[j][c] (P read as a
//     broadcast, each V word once for the 4 rows).
//   - At the end O = o / l goes out coalesced, and L = m + log(l) for the backward.
//   - Causal: a block stops at the key tile holding its last query, so the tiles
//     above the diagonal are never loaded; inside the diagonal tiles masked keys
//     give p = 0.
// Global traffic: Q read once, O and L written once; K and V read once per query
// tile (the tiles re-read them from L2: DRAM sees them once).
#pragma once
#include <cuda_runtime.h>

namespace attention {
constexpr int kFlashRows = 32;   // Br: query rows per block
constexpr int kFlashKeys = 16;   // Bc: keys per K/V tile
constexpr int kFlashWarps = 8;   // 4 rows each
}  // namespace attention

template <int D>
__global__ void attention_flash_forward(const float* Q, const float* K, const float* V, float* O, float* L, int n,
                                        float scale, bool causal) {
  constexpr int Br = attention::kFlashRows, Bc = attention::kFlashKeys, kRows = Br / attention::kFlashWarps;
  constexpr int kThreads = 32 * attention::kFlashWarps, kCols = D / 32;
  __shared__ float Qs[Br * (D + 1)];
  __shared__ float Ks[Bc * (D + 1)];
  __shared__ float Vs[Bc * D];
  __shared__ float Ps[Br * Bc];
  __shared__ float row_alpha[Br], row_l[Br];
  const size_t head = size_t(blockIdx.y) * n * D;
  Q += head, K += head, V += head, O += head;
  L += size_t(blockIdx.y) * n;
  const int q0 = blockIdx.x * Br, rows = min(Br, n - q0);
  const int t = threadIdx.x, warp = t / 32, lane = t % 32, half = lane / Bc, j = lane % Bc;

  for (int e = t; e < Br * D; e += kThreads)  // rows past n are zeros: S is computed for whole tiles
    Qs[(e / D) * (D + 1) + e % D] = e < rows * D ? Q[size_t(q0) * D + e] : 0.0f;
  float m[kRows / 2], l[kRows / 2];  // this lane's rows in the S phase (copies across its 16 lanes)
  for (int rr = 0; rr < kRows / 2; ++rr) m[rr] = -INFINITY, l[rr] = 0.0f;
  float o[kRows][kCols];  // the warp's 8 rows, this lane's columns
  for (int rr = 0; rr < kRows; ++rr)
    for (int k = 0; k < kCols; ++k) o[rr][k] = 0.0f;

  const int key_end = causal ? q0 + rows : n;  // keys past it are masked for every row here
  for (int k0 = 0; k0 < key_end; k0 += Bc) {
    const int keys = min(Bc, n - k0);
    for (int e = t; e < keys * D; e += kThreads) {
      Ks[(e / D) * (D + 1) + e % D] = K[size_t(k0) * D + e];
      Vs[e] = V[size_t(k0) * D + e];
    }
    __syncthreads();
    // q.k_j for this lane's rows at once: each K word read once for all of them.
    float dot[kRows / 2];
    for (int rr = 0; rr < kRows / 2; ++rr) dot[rr] = 0.0f;
    if (j < keys)
      for (int c = 0; c < D; ++c) {
        const float kc = Ks[j * (D + 1) + c];
        for (int rr = 0; rr < kRows / 2; ++rr)
          dot[rr] = fmaf(Qs[(warp * kRows + 2 * rr + half) * (D + 1) + c], kc, dot[rr]);
      }
    for (int rr = 0; rr < kRows / 2; ++rr) {
      const int r = warp * kRows + 2 * rr + half, i = q0 + r;
      const float s = r < rows && j < keys && (!causal || k0 + j <= i) ? dot[rr] * scale : -INFINITY;
      float tile_max = s;
      for (int offset = Bc / 2; offset > 0; offset /= 2)
        tile_max = fmaxf(tile_max, __shfl_xor_sync(0xffffffffu, tile_max, offset));
      const float m_new = fmaxf(m[rr], tile_max);
      // -inf everywhere (a row past n): nothing seen, nothing to rescale.
      const float alpha = m_new == -INFINITY ? 1.0f : expf(m[rr] - m_new);
      const float p = s == -INFINITY ? 0.0f : expf(s - m_new);
      float sum = p;
      for (int offset = Bc / 2; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
      l[rr] = l[rr] * alpha + sum;
      m[rr] = m_new;
      Ps[r * Bc + j] = p;
      if (j == 0) row_alpha[r] = alpha;
    }
    __syncwarp();
    for (int rr = 0; rr < kRows; ++rr) {
      const float alpha = row_alpha[warp * kRows + rr];
      for (int k = 0; k < kCols; ++k) o[rr][k] *= alpha;
    }
    for (int jj = 0; jj < keys; ++jj) {  // each V word read once for the warp's rows
      float vj[kCols];
      for (int k = 0; k < kCols; ++k) vj[k] = Vs[jj * D + lane + 32 * k];
      for (int rr = 0; rr < kRows; ++rr) {
        const float p = Ps[(warp * kRows + rr) * Bc + jj];
        for (int k = 0; k < kCols; ++k) o[rr][k] = fmaf(p, vj[k], o[rr][k]);
      }
    }
    __syncthreads();
  }

  for (int rr = 0; rr < kRows / 2; ++rr) {
    const int r = warp * kRows + 2 * rr + half;
    if (j == 0) {
      row_l[r] = l[rr];
      if (r < rows) L[q0 + r] = m[rr] + logf(l[rr]);
    }
  }
  __syncwarp();
  for (int rr = 0; rr < kRows; ++rr) {
    const int r = warp * kRows + rr;
    if (r < rows)
      for (int k = 0; k < kCols; ++k) O[size_t(q0 + r) * D + lane + 32 * k] = o[rr][k] / row_l[r];
  }
}

namespace attention {
inline void launch_flash_forward(const float* q, const float* k, const float* v, float* o, float* l, int bh, int n,
                                 int d, float scale, bool causal) {
  const dim3 grid((n + kFlashRows - 1) / kFlashRows, bh);
  if (d == 64)
    attention_flash_forward<64><<<grid, 32 * kFlashWarps>>>(q, k, v, o, l, n, scale, causal);
  else
    attention_flash_forward<128><<<grid, 32 * kFlashWarps>>>(q, k, v, o, l, n, scale, causal);
}
}  // namespace attention
