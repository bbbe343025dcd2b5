// Lab 18 with the right outputs and coalesced loads, but the block table read for
// every token instead of every page: 16 lookups of the same entry per full page, 64
// reads of block_table per thread for the 64-token sequence instead of 4.
#include "lab.cuh"

__global__ void paged_attention(const float* q, const float* k_cache, const float* v_cache, const int* block_table,
                                const int* seq_lens, float* out, int max_pages) {
  const int b = blockIdx.x, lane = threadIdx.x;
  const int n = seq_lens[b];
  const float q_c = q[b * kHeadDim + lane] * (1.0f / sqrtf(float(kHeadDim)));
  float m = -INFINITY, l = 0.0f, acc = 0.0f;

  for (int t = 0; t < n; ++t) {
    const int page = block_table[b * max_pages + t / kPageSize];
    const size_t row = (size_t(page) * kPageSize + t % kPageSize) * kHeadDim;
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
  paged_attention<<<batch, 32>>>(q, k_cache, v_cache, block_table, seq_lens, out, max_pages);
}
