// Lab 16 — FlashAttention. Read labs/16-flash-attention/README.md (simt lab show flash-attention).
// Check your work: simt lab check flash-attention attention.cu
//
// This version is right but is the attention FlashAttention replaces: the n x n score
// matrix S is written to global memory, softmaxed there in place, and read back for
// P V — three launches, and S's n^2 floats go out and in twice.
#include "lab.cuh"

// S[i][j] = (q_i . k_j) / sqrt(d): one thread per score.
__global__ void scores(const float* q, const float* k, float* s, int n) {
  const int i = blockIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  float dot = 0.0f;
  for (int c = 0; c < kHeadDim; ++c) dot += q[i * kHeadDim + c] * k[j * kHeadDim + c];
  s[i * n + j] = dot * (1.0f / sqrtf(float(kHeadDim)));
}

// Each row of S becomes its softmax, in place: one thread per row.
__global__ void softmax_rows(float* s, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float m = -INFINITY, sum = 0.0f;
  for (int j = 0; j < n; ++j) m = fmaxf(m, s[i * n + j]);
  for (int j = 0; j < n; ++j) sum += s[i * n + j] = expf(s[i * n + j] - m);
  for (int j = 0; j < n; ++j) s[i * n + j] /= sum;
}

// O[i][c] = sum_j P[i][j] V[j][c]: one thread per output.
__global__ void pv(const float* p, const float* v, float* o, int n) {
  const int i = blockIdx.x, c = threadIdx.x;
  float acc = 0.0f;
  for (int j = 0; j < n; ++j) acc += p[i * n + j] * v[j * kHeadDim + c];
  o[i * kHeadDim + c] = acc;
}

// TODO 1: one kernel, `flash_attention`. Give each block a tile of queries — e.g. 8,
//         one warp per query, lane c holding element c of the query and of its output
//         (d = 32 = the warp) — and let it walk over the keys in tiles of 32.
// TODO 2: per key tile, the whole block copies the 32 rows of K and of V into shared
//         memory (coalesced), __syncthreads(), uses them, and __syncthreads() again
//         before the next tile overwrites them. Warps whose query is past n still load
//         and still reach both barriers.
// TODO 3: never store S: for each key j the warp's score is a shuffle-reduced dot
//         product; keep a running max m, a running sum l and the output accumulator,
//         and rescale l and the accumulator by expf(m_old - m_new) when the max grows
//         (online softmax, lab 14). At the end O = accumulator / l.
void launch_attention(const float* q, const float* k, const float* v, float* o, int n) {
  float* s = nullptr;
  cudaMalloc(&s, sizeof(float) * n * n);
  scores<<<dim3(lab::blocks_for(n, 64), n), 64>>>(q, k, s, n);
  softmax_rows<<<lab::blocks_for(n, 64), 64>>>(s, n);
  pv<<<n, kHeadDim>>>(s, v, o, n);
  cudaFree(s);
}
