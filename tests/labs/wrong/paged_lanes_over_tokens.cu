// Lab 18 with the right outputs but the lanes over tokens instead of over the head
// dimension: lane i scores token t0 + i by a loop over the 32 elements of its key.
// In each load the 32 lanes read 32 different tokens, 128 bytes apart: 32 sectors per
// request instead of 4 (and the P V product needs a warp sum per output element).
#include "lab.cuh"

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void paged_attention(const float* q, const float* k_cache, const float* v_cache, const int* block_table,
                                const int* seq_lens, float* out, int max_pages) {
  const int b = blockIdx.x, lane = threadIdx.x;
  const int n = seq_lens[b];
  const float scale = 1.0f / sqrtf(float(kHeadDim));
  float m = -INFINITY, l = 0.0f, acc = 0.0f;  // acc: lane c keeps output element c

  for (int first = 0; first < n; first += 32) {
    const int t = first + lane;
    const bool valid = t < n;
    size_t row = 0;
    float s = -INFINITY;
    if (valid) {
      row = (size_t(block_table[b * max_pages + t / kPageSize]) * kPageSize + t % kPageSize) * kHeadDim;
      float dot = 0.0f;
      for (int c = 0; c < kHeadDim; ++c) dot += q[b * kHeadDim + c] * k_cache[row + c];
      s = dot * scale;
    }
    float top = s;
    for (int offset = 16; offset > 0; offset /= 2) top = fmaxf(top, __shfl_xor_sync(0xffffffffu, top, offset));
    const float m_new = fmaxf(m, top);  // lane 0's token is always valid: m_new is finite
    const float rescale = expf(m - m_new);
    const float p = valid ? expf(s - m_new) : 0.0f;
    l = l * rescale + warp_sum(p);
    for (int c = 0; c < kHeadDim; ++c) {
      const float pv = warp_sum(valid ? p * v_cache[row + c] : 0.0f);
      if (lane == c) acc = acc * rescale + pv;
    }
    m = m_new;
  }
  out[b * kHeadDim + lane] = acc / l;
}

void launch_paged_attention(const float* q, const float* k_cache, const float* v_cache, const int* block_table,
                            const int* seq_lens, float* out, int batch, int max_pages) {
  paged_attention<<<batch, 32>>>(q, k_cache, v_cache, block_table, seq_lens, out, max_pages);
}
