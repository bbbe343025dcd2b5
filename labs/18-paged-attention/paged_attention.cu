// Lab 18 — paged attention. Read labs/18-paged-attention/README.md (simt lab show paged-attention).
// Check your work: simt lab check paged-attention paged_attention.cu
//
// The attention is done (one warp per sequence, lane c on element c of the head
// dimension, online softmax as in lab 16); the KV cache addressing is not: this
// version reads sequence b's tokens as if its pages were b * max_pages, +1, +2, ...
// of the cache. They are wherever the block table says.
#include "lab.cuh"

__global__ void paged_attention(const float* q, const float* k_cache, const float* v_cache, const int* block_table,
                                const int* seq_lens, float* out, int max_pages) {
  const int b = blockIdx.x, lane = threadIdx.x;
  const int n = seq_lens[b];
  const float q_c = q[b * kHeadDim + lane] * (1.0f / sqrtf(float(kHeadDim)));
  float m = -INFINITY, l = 0.0f, acc = 0.0f;  // running max, sum of exp, sum of exp * v

  for (int t = 0; t < n; ++t) {
    // TODO 1: the physical page of token t is block_table[b * max_pages + t / kPageSize].
    // TODO 2: look each page up once, not once per token: loop over the sequence's
    //         pages, and inside over the page's slots (the last page may be partial).
    const int page = b * max_pages + t / kPageSize;
    const int slot = t % kPageSize;
    const size_t row = (size_t(page) * kPageSize + slot) * kHeadDim;  // lanes read 32 consecutive floats

    float s = q_c * k_cache[row + lane];
    for (int offset = 16; offset > 0; offset /= 2) s += __shfl_xor_sync(0xffffffffu, s, offset);
    const float m_new = fmaxf(m, s);
    const float rescale = expf(m - m_new), p = expf(s - m_new);
    l = l * rescale + p;
    acc = acc * rescale + p * v_cache[row + lane];
    m = m_new;
  }
  out[b * kHeadDim + lane] = acc / l;
}

void launch_paged_attention(const float* q, const float* k_cache, const float* v_cache, const int* block_table,
                            const int* seq_lens, float* out, int batch, int max_pages) {
  // One warp per sequence: a decode step has few queries and each reads its own cache.
  paged_attention<<<batch, 32>>>(q, k_cache, v_cache, block_table, seq_lens, out, max_pages);
}
