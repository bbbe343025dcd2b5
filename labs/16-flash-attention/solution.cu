// Lab 16 — FlashAttention: a solution (labs/16-flash-attention/README.md).
// One launch; each block takes kQueries queries (one warp each, lane c = element c of
// the head dimension) and streams K and V through shared memory in tiles of kKeys
// rows. The scores live one at a time in registers: no S in global memory.
#include "lab.cuh"

constexpr int kQueries = 8;  // queries per block: one warp each
constexpr int kKeys = 32;    // keys per K/V tile in shared memory
constexpr int kThreads = kQueries * 32;

__global__ void flash_attention(const float* q, const float* k, const float* v, float* o, int n) {
  __shared__ float k_tile[kKeys][kHeadDim], v_tile[kKeys][kHeadDim];
  const int lane = threadIdx.x % 32;
  const int query = blockIdx.x * kQueries + threadIdx.x / 32;
  const bool active = query < n;  // the last block's spare warps still load tiles and reach the barriers

  // q . k / sqrt(d) == (q / sqrt(d)) . k: scale the query once, not every score.
  const float q_c = active ? q[query * kHeadDim + lane] * (1.0f / sqrtf(float(kHeadDim))) : 0.0f;
  float m = -INFINITY;  // running max of the scores seen so far
  float l = 0.0f;       // running sum of exp(score - m)
  float acc = 0.0f;     // running sum of exp(score - m) * v[j][lane]

  for (int first = 0; first < n; first += kKeys) {
    const int keys = min(kKeys, n - first);
    // The tile's rows are contiguous in K and V: element e of the tile is element
    // first * d + e of the array, so consecutive threads load consecutive floats.
    for (int e = threadIdx.x; e < keys * kHeadDim; e += kThreads) {
      k_tile[e / kHeadDim][e % kHeadDim] = k[first * kHeadDim + e];
      v_tile[e / kHeadDim][e % kHeadDim] = v[first * kHeadDim + e];
    }
    __syncthreads();  // the tile is complete before any warp reads it

    for (int j = 0; j < keys; ++j) {
      float s = q_c * k_tile[j][lane];  // lanes read consecutive words: no bank conflict
      for (int offset = 16; offset > 0; offset /= 2) s += __shfl_xor_sync(0xffffffffu, s, offset);
      const float m_new = fmaxf(m, s);
      const float rescale = expf(m - m_new);  // 0 for the first key (m = -inf)
      const float p = expf(s - m_new);
      l = l * rescale + p;
      acc = acc * rescale + p * v_tile[j][lane];
      m = m_new;
    }
    __syncthreads();  // every warp is done with the tile before the next one overwrites it
  }
  if (active) o[query * kHeadDim + lane] = acc / l;
}

void launch_attention(const float* q, const float* k, const float* v, float* o, int n) {
  flash_attention<<<lab::blocks_for(n, kQueries), kThreads>>>(q, k, v, o, n);
}
