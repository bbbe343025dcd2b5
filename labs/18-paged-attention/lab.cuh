// Lab 18 harness (labs/18-paged-attention/README.md): the sequences, the paged KV
// cache, the block table, the CPU reference and the comparison. Your file includes it
// and defines launch_paged_attention.
#pragma once
#include "simtlab_lab.cuh"

constexpr int kHeadDim = 32;  // d: one warp's worth of floats per key, value, query
constexpr int kPageSize = 16;  // tokens per page of the KV cache

// Decode attention for `batch` sequences, one new query each (single head, no mask
// beyond each sequence's length):
//   out[b] = softmax(q[b] K_b^T / sqrt(d)) V_b   over the seq_lens[b] cached tokens of b.
// The KV cache is paged, as in vLLM: k_cache and v_cache hold pages of kPageSize tokens
// x kHeadDim floats ([page][slot][c]). Token t of sequence b lives in physical page
// block_table[b * max_pages + t / kPageSize], slot t % kPageSize. A sequence's pages are
// anywhere in the cache, in any order.
void launch_paged_attention(const float* q, const float* k_cache, const float* v_cache, const int* block_table,
                            const int* seq_lens, float* out, int batch, int max_pages);

int main(int argc, char** argv) {
  lab::Case c(argc, argv);
  const int batch = int(c.size("batch", 3));
  const int d = kHeadDim;
  // Lengths of every kind: partial last pages, exactly one page, a single token.
  const int kLengths[] = {37, 64, 5, 16, 1, 50, 33, 48};
  std::vector<int> seq_lens(batch);
  int longest = 1;
  for (int b = 0; b < batch; ++b) longest = std::max(longest, seq_lens[b] = kLengths[b % 8]);
  const int max_pages = (longest + kPageSize - 1) / kPageSize;

  // A pool with room for every sequence's longest case and two spare pages, handed out
  // in a shuffled order: logical page p of sequence b is almost never physical page
  // b * max_pages + p. Unused entries of the block table are -1.
  const int pool = batch * max_pages + 2;
  lab::Random random(18);
  std::vector<int> order(pool);
  for (int i = 0; i < pool; ++i) order[i] = i;
  for (int i = pool - 1; i > 0; --i) std::swap(order[i], order[random.integer(0, i)]);
  std::vector<int> block_table(std::size_t(batch) * max_pages, -1);
  int next = 0;
  for (int b = 0; b < batch; ++b)
    for (int p = 0; p * kPageSize < seq_lens[b]; ++p) block_table[b * max_pages + p] = order[next++];

  const std::vector<float> k_cache = random.floats(std::size_t(pool) * kPageSize * d, -2.0f, 2.0f);
  const std::vector<float> v_cache = random.floats(k_cache.size(), -1.0f, 1.0f);
  const std::vector<float> q = random.floats(std::size_t(batch) * d, -2.0f, 2.0f);

  std::vector<float> want(std::size_t(batch) * d);
  const float scale = 1.0f / std::sqrt(float(d));
  for (int b = 0; b < batch; ++b) {
    const int n = seq_lens[b];
    std::vector<float> s(n);
    auto row = [&](int t) {  // offset of token t of sequence b in the caches
      return (std::size_t(block_table[b * max_pages + t / kPageSize]) * kPageSize + t % kPageSize) * d;
    };
    float m = -INFINITY;
    for (int t = 0; t < n; ++t) {
      float dot = 0.0f;
      for (int c2 = 0; c2 < d; ++c2) dot += q[b * d + c2] * k_cache[row(t) + c2];
      m = std::max(m, s[t] = dot * scale);
    }
    float sum = 0.0f;
    for (int t = 0; t < n; ++t) sum += s[t] = std::exp(s[t] - m);
    for (int c2 = 0; c2 < d; ++c2) {
      float acc = 0.0f;
      for (int t = 0; t < n; ++t) acc += s[t] * v_cache[row(t) + c2];
      want[b * d + c2] = acc / sum;
    }
  }

  const float* d_q = c.to_device("q", q);
  const float* d_k = c.to_device("k_cache", k_cache);
  const float* d_v = c.to_device("v_cache", v_cache);
  const int* d_table = c.to_device("block_table", block_table);
  const int* d_lens = c.to_device("seq_lens", seq_lens);
  float* d_out = c.output<float>("out", want.size());
  launch_paged_attention(d_q, d_k, d_v, d_table, d_lens, d_out, batch, max_pages);
  // Near, not equal: the kernel adds dot products, the softmax sum and P V in another
  // order than these loops (a shuffle tree, a running sum rescaled as the max grows),
  // and the GPU's expf need not round like std::exp. out is an average of values with
  // |v| <= 1, and these move it by a few ulps of 1: 2e-6 absolute (some 30 ulps) +
  // 1e-5 relative. A token read from a wrong page changes it by 1e-2 or more.
  if (c.launched("launch_paged_attention")) c.expect_near("out", c.to_host(d_out, want.size()), want, 2e-6, 1e-5);
  return c.finish();
}
