// Lab 18 — paged attention: a solution (labs/18-paged-attention/README.md).
// One warp per sequence, lane c on element c of the head dimension; the sequence's
// tokens are visited page by page through the block table (one lookup per page), with
// the online softmax of lab 16.
#include "lab.cuh"

__global__ void paged_attention(const float* q, const float* k_cache, const float* v_cache, const int* block_table,
                                const int* seq_lens, float* out, int max_pages) {
  const int b = blockIdx.x, lane = threadIdx.x;
  const int n = seq_lens[b];
  const float q_c = q[b * kHeadDim + lane] * (1.0f / sqrtf(float(kHeadDim)));
  float m = -INFINITY, l = 0.0f, acc = 0.0f;  // running max, sum of exp, sum of exp * v

  for (int first = 0, p = 0; first < n; first += kPageSize, ++p) {
    const int page = block_table[b * max_pages + p];  // where logical page p really is
    const int tokens = min(kPageSize, n - first);      // the last page may be partial
    const float* k_page = k_cache + size_t(page) * kPageSize * kHeadDim;
    const float* v_page = v_cache + size_t(page) * kPageSize * kHeadDim;
    for (int slot = 0; slot < tokens; ++slot) {
      float s = q_c * k_page[slot * kHeadDim + lane];  // 32 consecutive floats: 4 sectors
      for (int offset = 16; offset > 0; offset /= 2) s += __shfl_xor_sync(0xffffffffu, s, offset);
      const float m_new = fmaxf(m, s);
      const float rescale = expf(m - m_new), prob = expf(s - m_new);  // rescale is 0 for the first token
      l = l * rescale + prob;
      acc = acc * rescale + prob * v_page[slot * kHeadDim + lane];
      m = m_new;
    }
  }
  out[b * kHeadDim + lane] = acc / l;
}

void launch_paged_attention(const float* q, const float* k_cache, const float* v_cache, const int* block_table,
                            const int* seq_lens, float* out, int batch, int max_pages) {
  paged_attention<<<batch, 32>>>(q, k_cache, v_cache, block_table, seq_lens, out, max_pages);
}
