// FlashAttention-2's backward, fp32. The driver runs attention_flash's forward
// (kernels/attention_flash.cuh) for O and L, then the gradients of
// sum(dO * O) for the family's dO (multiples of 1/64), in three launches:
//   1. attention_bwd_rowdot  D[i] = sum_c dO[i][c] O[i][c], a warp per row (so that
//                            dS = P * (dP - D) needs no row sum over N later)
//   2. attention_bwd_dkdv    a block per 64-key tile, a thread per key row with k, v,
//                            dk and dv in registers; Q, dO, L and D stream through
//                            shared memory in tiles of 32 queries. Per query i:
//                            s = q.k * scale, P = exp(s - L[i]) recomputed from the
//                            forward's logsumexp (no N x N stored anywhere),
//                            dv += P dO_i, dP = dO_i.v, dS = P (dP - D[i]), dk += dS q_i
//   3. attention_bwd_dq      a block per 64-query tile, a thread per query row with
//                            q, dO and dq in registers; K and V stream through in
//                            tiles of 32 keys; s, P, dP and dS recomputed the same
//                            way (the same expressions: the same bits), dq += dS k_j
// FlashAttention-2 computes dQ inside launch 2 with atomicAdd: fewer FLOPs, but
// the order in which key tiles add into dQ then depends on timing, and so do the
// low bits. The separate pass keeps every sum in one fixed order, so dQ is
// reproducible run to run and comparable bit for bit with a GPU; the price is S
// and dP computed a second time: the backward does 7 products of 2*N*N*d FLOPs
// per head (S, dV, dP, dK in launch 2; S, dP, dQ in launch 3) where the textbook
// backward reading a stored P does 4 (dV, dP, dQ, dK) and FlashAttention-2 5.
// Causal: launch 2 starts at the query tile holding the key tile's first key,
// launch 3 stops at the key tile holding the query tile's last query. Inside the
// diagonal tiles launch 2 computes the masked pairs and zeroes their P (its lanes
// are keys: skipping would make each lane skip different queries), launch 3 stops
// each query's row at its own key (its lanes are queries walking the keys in
// order, so they part only at the end).
#include "kernels/attention_common.cuh"
#include "kernels/attention_flash.cuh"
#include "kernels/harness.hpp"
#include <cuda_runtime.h>

namespace {
constexpr int kOwnRows = 64;    // keys (launch 2) or queries (launch 3) per block, a thread each
constexpr int kStreamRows = 32; // queries (launch 2) or keys (launch 3) per streamed tile
}  // namespace

__global__ void attention_bwd_rowdot(const float* dO, const float* O, float* Dsum, int rows, int d) {
  const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
  if (row >= rows) return;
  float acc = 0.0f;
  for (int c = lane; c < d; c += 32) acc = fmaf(dO[size_t(row) * d + c], O[size_t(row) * d + c], acc);
  for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, offset);
  if (lane == 0) Dsum[row] = acc;
}

// Copies `rows` rows of a (rows x D) tile from global memory into registers of
// the thread owning each row, through `stage` (rows padded to D + 1 words:
// coalesced in, conflict-free out).
template <int D>
__device__ inline void rows_to_registers(const float* src, int rows, float* stage, float (&reg)[D]) {
  const int t = threadIdx.x;
  for (int e = t; e < rows * D; e += kOwnRows) stage[(e / D) * (D + 1) + e % D] = src[e];
  __syncthreads();
  for (int c = 0; c < D; ++c) reg[c] = t < rows ? stage[t * (D + 1) + c] : 0.0f;
  __syncthreads();
}

// The way back: each thread's row into `stage`, then out coalesced.
template <int D>
__device__ inline void registers_to_rows(const float (&reg)[D], int rows, float* stage, float* dst) {
  const int t = threadIdx.x;
  if (t < rows)
    for (int c = 0; c < D; ++c) stage[t * (D + 1) + c] = reg[c];
  __syncthreads();
  for (int e = t; e < rows * D; e += kOwnRows) dst[e] = stage[(e / D) * (D + 1) + e % D];
  __syncthreads();
}

template <int D>
__global__ void attention_bwd_dkdv(const float* Q, const float* K, const float* V, const float* dO, const float* L,
                                   const float* Dsum, float* dK, float* dV, int n, float scale, bool causal) {
  constexpr int kStage = kOwnRows * (D + 1), kTiles = 2 * kStreamRows * D;
  __shared__ float smem[kStage > kTiles ? kStage : kTiles];
  __shared__ float Ls[kStreamRows], Ds[kStreamRows];
  float* Qs = smem;
  float* dOs = smem + kStreamRows * D;
  const size_t head = size_t(blockIdx.y) * n * D;
  Q += head, K += head, V += head, dO += head, dK += head, dV += head;
  L += size_t(blockIdx.y) * n, Dsum += size_t(blockIdx.y) * n;
  const int k0 = blockIdx.x * kOwnRows, keys = min(kOwnRows, n - k0), t = threadIdx.x, j = k0 + t;

  float k[D], v[D], dk[D], dv[D];
  rows_to_registers<D>(K + size_t(k0) * D, keys, smem, k);
  rows_to_registers<D>(V + size_t(k0) * D, keys, smem, v);
  for (int c = 0; c < D; ++c) dk[c] = dv[c] = 0.0f;

  // Causal: queries before the tile's first key see none of its keys.
  for (int i0 = causal ? k0 / kStreamRows * kStreamRows : 0; i0 < n; i0 += kStreamRows) {
    const int queries = min(kStreamRows, n - i0);
    for (int e = t; e < queries * D; e += kOwnRows) {
      Qs[e] = Q[size_t(i0) * D + e];
      dOs[e] = dO[size_t(i0) * D + e];
    }
    if (t < queries) Ls[t] = L[i0 + t], Ds[t] = Dsum[i0 + t];
    __syncthreads();
    if (t < keys)
      for (int r = 0; r < queries; ++r) {
        // Masked pairs (key after query, diagonal tiles only) are computed and given
        // P = 0, as FlashAttention-2 masks whole tiles: every lane walks the same r,
        // so a warp's shared reads stay one broadcast each.
        float s = 0.0f, dp = 0.0f;
        for (int c = 0; c < D; ++c) s = fmaf(Qs[r * D + c], k[c], s);
        for (int c = 0; c < D; ++c) dp = fmaf(dOs[r * D + c], v[c], dp);
        const float p = causal && j > i0 + r ? 0.0f : expf(s * scale - Ls[r]);
        const float ds = p * (dp - Ds[r]);
        for (int c = 0; c < D; ++c) dv[c] = fmaf(p, dOs[r * D + c], dv[c]);
        for (int c = 0; c < D; ++c) dk[c] = fmaf(ds, Qs[r * D + c], dk[c]);
      }
    __syncthreads();
  }
  for (int c = 0; c < D; ++c) dk[c] *= scale;
  registers_to_rows<D>(dk, keys, smem, dK + size_t(k0) * D);
  registers_to_rows<D>(dv, keys, smem, dV + size_t(k0) * D);
}

template <int D>
__global__ void attention_bwd_dq(const float* Q, const float* K, const float* V, const float* dO, const float* L,
                                 const float* Dsum, float* dQ, int n, float scale, bool causal) {
  constexpr int kStage = kOwnRows * (D + 1), kTiles = 2 * kStreamRows * D;
  __shared__ float smem[kStage > kTiles ? kStage : kTiles];
  float* Ks = smem;
  float* Vs = smem + kStreamRows * D;
  const size_t head = size_t(blockIdx.y) * n * D;
  Q += head, K += head, V += head, dO += head, dQ += head;
  L += size_t(blockIdx.y) * n, Dsum += size_t(blockIdx.y) * n;
  const int i0 = blockIdx.x * kOwnRows, queries = min(kOwnRows, n - i0), t = threadIdx.x, i = i0 + t;

  float q[D], d_o[D], dq[D];
  rows_to_registers<D>(Q + size_t(i0) * D, queries, smem, q);
  rows_to_registers<D>(dO + size_t(i0) * D, queries, smem, d_o);
  for (int c = 0; c < D; ++c) dq[c] = 0.0f;
  const float Li = t < queries ? L[i] : 0.0f, Di = t < queries ? Dsum[i] : 0.0f;

  const int key_end = causal ? i0 + queries : n;
  for (int j0 = 0; j0 < key_end; j0 += kStreamRows) {
    const int keys = min(kStreamRows, n - j0);
    for (int e = t; e < keys * D; e += kOwnRows) {
      Ks[e] = K[size_t(j0) * D + e];
      Vs[e] = V[size_t(j0) * D + e];
    }
    __syncthreads();
    if (t < queries)
      for (int r = 0; r < keys; ++r) {
        if (causal && j0 + r > i) break;
        float s = 0.0f, dp = 0.0f;
        for (int c = 0; c < D; ++c) s = fmaf(q[c], Ks[r * D + c], s);
        for (int c = 0; c < D; ++c) dp = fmaf(d_o[c], Vs[r * D + c], dp);
        const float p = expf(s * scale - Li);
        const float ds = p * (dp - Di);
        for (int c = 0; c < D; ++c) dq[c] = fmaf(ds, Ks[r * D + c], dq[c]);
      }
    __syncthreads();
  }
  for (int c = 0; c < D; ++c) dq[c] *= scale;
  registers_to_rows<D>(dq, queries, smem, dQ + size_t(i0) * D);
}

namespace {

using namespace simt::kernels;

template <int D>
void launch_backward(const float* q, const float* k, const float* v, const float* d_o, const float* o,
                     const float* l, float* dsum, float* dq, float* dk, float* dv, const attention::Shape& s) {
  const int rows = int(s.rows()), tiles = (s.n + kOwnRows - 1) / kOwnRows;
  attention_bwd_rowdot<<<(rows + 3) / 4, 128>>>(d_o, o, dsum, rows, D);
  attention_bwd_dkdv<D><<<dim3(tiles, s.bh()), kOwnRows>>>(q, k, v, d_o, l, dsum, dk, dv, s.n, s.scale, s.causal);
  attention_bwd_dq<D><<<dim3(tiles, s.bh()), kOwnRows>>>(q, k, v, d_o, l, dsum, dq, s.n, s.scale, s.causal);
}

Outputs run(const Params& p) {
  const attention::Shape s = attention::shape(p);
  const attention::Inputs in = attention::inputs(s);
  float *q = attention::upload(in.q), *k = attention::upload(in.k), *v = attention::upload(in.v),
        *d_o = attention::upload(in.d_o);
  float *o, *l, *dsum, *dq, *dk, *dv;
  for (float** b : {&o, &dq, &dk, &dv}) cudaMalloc(b, s.size() * sizeof(float));
  for (float** b : {&l, &dsum}) cudaMalloc(b, s.rows() * sizeof(float));
  attention::launch_flash_forward(q, k, v, o, l, s.bh(), s.n, s.d, s.scale, s.causal);
  if (s.d == 64)
    launch_backward<64>(q, k, v, d_o, o, l, dsum, dq, dk, dv, s);
  else
    launch_backward<128>(q, k, v, d_o, o, l, dsum, dq, dk, dv, s);
  Outputs out{{{"dq", attention::download(dq, s.size())},
               {"dk", attention::download(dk, s.size())},
               {"dv", attention::download(dv, s.size())}}};
  for (float* b : {q, k, v, d_o, o, l, dsum, dq, dk, dv}) cudaFree(b);
  return out;
}

Registration reg({"attention_flash_backward",
                  "FlashAttention-2 backward, fp32: P recomputed from Q, K and the logsumexp; dK/dV by key tile, "
                  "dQ in a separate pass (deterministic, no atomics)",
                  attention::params(), run, attention::check_backward});

}  // namespace
