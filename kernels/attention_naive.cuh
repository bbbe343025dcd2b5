// The textbook attention's kernels (kernels/attention_common.cuh lists the family):
// attention_naive.cu runs them as the forward, attention_naive_backward.cu runs the
// forward for P and adds the textbook backward's. Templates on the tile edge, so
// that both files can include them.
#pragma once
#include <cuda_runtime.h>


// S[i][j] = scale * sum_c Q[i][c] K[j][c]; block (16, 16), grid (tiles of j, tiles
// of i, heads). Ks is padded to 17 columns: Ks[tx][c] over the 16 tx of a half-warp
// then falls in 16 different banks.
template <int kTile>
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

// One warp per row of S (kWarps rows per block): three passes over the row,
// lanes striding it (coalesced): the max, the sum of exp(s - max), then P.
template <int kWarps>
__global__ void attention_naive_softmax(float* S, int rows, int n, bool causal) {
  const int row = blockIdx.x * kWarps + threadIdx.x / 32, lane = threadIdx.x % 32;
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
template <int kTile>
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

// dV = P^T dO and dK = dS^T Q: Out[j][c] = sum_i A[i][j] B[i][c] for
// (n x n) A and (n x d) B; block (16, 16), grid (d / 16, tiles of j, heads). A's
// tile is stored transposed (As[i][j] read as As[kk][ty]: a broadcast per row).
template <int kTile>
__global__ void attention_naive_atb(const float* A, const float* B, float* Out, int n, int d) {
  __shared__ float As[kTile][kTile + 1];
  __shared__ float Bs[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int j = blockIdx.y * kTile + ty, c = blockIdx.x * kTile + tx;
  A += size_t(blockIdx.z) * n * n;
  B += size_t(blockIdx.z) * n * d;
  Out += size_t(blockIdx.z) * n * d;
  float acc = 0.0f;
  for (int i0 = 0; i0 < n; i0 += kTile) {
    As[ty][tx] = i0 + ty < n && blockIdx.y * kTile + tx < n ? A[size_t(i0 + ty) * n + blockIdx.y * kTile + tx] : 0.0f;
    Bs[ty][tx] = i0 + ty < n ? B[size_t(i0 + ty) * d + c] : 0.0f;
    __syncthreads();
    for (int i = 0; i < kTile; ++i) acc = fmaf(As[i][ty], Bs[i][tx], acc);
    __syncthreads();
  }
  if (j < n) Out[size_t(j) * d + c] = acc;
}

// The softmax's backward in place: with P and dP (n x n), a warp per row,
// D = sum_j P[i][j] dP[i][j], then dS = P (dP - D) * scale written over dP (the
// scale of S = Q K^T * scale folded in, for dQ = dS K and dK = dS^T Q).
template <int kWarps>
__global__ void attention_naive_softmax_backward(const float* P, float* dP, int rows, int n, float scale) {
  const int row = blockIdx.x * kWarps + threadIdx.x / 32, lane = threadIdx.x % 32;
  if (row >= rows) return;
  const float* p = P + size_t(row) * n;
  float* dp = dP + size_t(row) * n;
  float dot = 0.0f;
  for (int j = lane; j < n; j += 32) dot = fmaf(p[j], dp[j], dot);
  for (int offset = 16; offset > 0; offset /= 2) dot += __shfl_xor_sync(0xffffffffu, dot, offset);
  for (int j = lane; j < n; j += 32) dp[j] = p[j] * (dp[j] - dot) * scale;
}
