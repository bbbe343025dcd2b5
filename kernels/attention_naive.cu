// Standard attention, the textbook (FlashAttention's Algorithm 0): three launches
// with the N x N matrix in global memory between them.
//   1. attention_naive_scores   S = Q K^T * scale, 16 x 16 shared-memory tiles (one
//                               thread per element of S); causal: j > i written as -inf
//   2. attention_naive_softmax  a warp per row of S: max, sum of exp, then P = exp(s -
//                               max) / sum written over S in place (masked entries 0)
//   3. attention_naive_pv       O = P V, 16 x 16 tiles again, over all N keys
// Each launch is coalesced and its loads tiled; what makes it slow is S itself:
// N*N*4 bytes per head written by the first launch, read and rewritten by the
// second, read by the third, against N*d*4 for each of Q, K, V and O. At N = 256,
// d = 64 that is 256 KiB of S against 64 KiB per input; the ratio grows with N.
#include "kernels/attention_common.cuh"
#include "kernels/harness.hpp"
#include <cuda_runtime.h>

namespace {
constexpr int kTile = 16;
}

// S[i][j] = scale * sum_c Q[i][c] K[j][c]; block (16, 16), grid (tiles of j, tiles
// of i, heads). Ks is padded to 17 columns: Ks[tx][c] over the 16 tx of a half-warp
// then falls in 16 different banks.
__global__ void attention_naive_scores(const float* Q, const float* K, float* S, int n, int d, float scale,
                                       bool causal) {
  __shared__ float Qs[kTile][kTile + 1];
  __shared__ float Ks[kTile][kTile + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.y * kTile + ty, j = blockIdx.x * kTile + tx;
  const int key_row = blockIdx.x * kTile + ty;  // the row of K this thread loads
  Q += size_t(blockIdx.z) * n * d;
  K += size_t(blockIdx.z) * n * d;
  S += size_t(blockIdx.z) * n * n;
  float acc = 0.0f;
  for (int c0 = 0; c0 < d; c0 += kTile) {  // d is a multiple of 16
    Qs[ty][tx] = i < n ? Q[size_t(i) * d + c0 + tx] : 0.0f;
    Ks[ty][tx] = key_row < n ? K[size_t(key_row) * d + c0 + tx] : 0.0f;
    __syncthreads();
    for (int c = 0; c < kTile; ++c) acc = fmaf(Qs[ty][c], Ks[tx][c], acc);
    __syncthreads();
  }
  if (i < n && j < n) S[size_t(i) * n + j] = causal && j > i ? -INFINITY : acc * scale;
}

// One warp per row of S (4 rows per block of 128): three passes over the row,
// lanes striding it (coalesced): the max, the sum of exp(s - max), then P.
__global__ void attention_naive_softmax(float* S, int rows, int n, bool causal) {
  const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
  if (row >= rows) return;
  const int i = row % n;  // the query: row of its head
  const int visible = causal ? i + 1 : n;
  float* s = S + size_t(row) * n;
  float m = -INFINITY;
  for (int j = lane; j < visible; j += 32) m = fmaxf(m, s[j]);
  for (int offset = 16; offset > 0; offset /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, offset));
  float sum = 0.0f;
  for (int j = lane; j < visible; j += 32) sum += expf(s[j] - m);
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  for (int j = lane; j < n; j += 32) s[j] = j < visible ? expf(s[j] - m) / sum : 0.0f;
}

// O[i][c] = sum_j P[i][j] V[j][c]; block (16, 16), grid (d / 16, tiles of i,
// heads). The tiles past the last key are zero-padded.
__global__ void attention_naive_pv(const float* P, const float* V, float* O, int n, int d) {
  __shared__ float Ps[kTile][kTile];
  __shared__ float Vs[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.y * kTile + ty, c = blockIdx.x * kTile + tx;
  P += size_t(blockIdx.z) * n * n;
  V += size_t(blockIdx.z) * n * d;
  O += size_t(blockIdx.z) * n * d;
  float acc = 0.0f;
  for (int j0 = 0; j0 < n; j0 += kTile) {
    Ps[ty][tx] = i < n && j0 + tx < n ? P[size_t(i) * n + j0 + tx] : 0.0f;
    Vs[ty][tx] = j0 + ty < n ? V[size_t(j0 + ty) * d + c] : 0.0f;
    __syncthreads();
    for (int j = 0; j < kTile; ++j) acc = fmaf(Ps[ty][j], Vs[j][tx], acc);
    __syncthreads();
  }
  if (i < n) O[size_t(i) * d + c] = acc;
}

namespace {

using namespace simt::kernels;

void launch(const float* q, const float* k, const float* v, float* o, float*, const attention::Shape& s) {
  float* scores;  // S, then P: (B, H, N, N)
  cudaMalloc(&scores, s.rows() * s.n * sizeof(float));
  const dim3 block(kTile, kTile);
  const int tiles = (s.n + kTile - 1) / kTile;
  attention_naive_scores<<<dim3(tiles, tiles, s.bh()), block>>>(q, k, scores, s.n, s.d, s.scale, s.causal);
  const int rows = int(s.rows());
  attention_naive_softmax<<<(rows + 3) / 4, 128>>>(scores, rows, s.n, s.causal);
  attention_naive_pv<<<dim3(s.d / kTile, tiles, s.bh()), block>>>(scores, v, o, s.n, s.d);
  cudaFree(scores);
}

Outputs run(const Params& p) { return attention::run_forward(p, false, launch); }

Registration reg({"attention_naive",
                  "attention in 3 launches: S = QK^T to global memory, softmax in place, O = PV (N x N through HBM)",
                  attention::params(), run, attention::check_forward});

}  // namespace
