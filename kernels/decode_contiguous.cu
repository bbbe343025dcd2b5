// Decode attention over a contiguous KV cache (kernels/decode_common.cuh): one warp
// per (sequence, query head), K and V of the head's KV head stored token after token,
// [batch][kv_heads][seq][dim]. Lanes split the head dimension: each token's K row and
// V row are dim / 32 coalesced loads (4 sectors each), its score a warp sum by
// shuffles, and the softmax online, so the cache is read once per query head, in
// order. With grouped KV heads (kv_heads < heads) the query heads of a group each read
// their shared KV head again: decode_gqa reads it once.
#include "kernels/decode_common.cuh"
#include "kernels/harness.hpp"
#include <cuda_runtime.h>

__global__ void decode_contiguous(const float* q, const float* k, const float* v, const int* lens, float* o, int batch,
                                  int seq, int heads, int kv_heads, int dim, float scale) {
  const int pair = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (pair >= batch * heads) return;  // whole warps leave together
  const int b = pair / heads, h = pair % heads, kvh = h / (heads / kv_heads);
  const decode::ContiguousRows rows{(size_t(b) * kv_heads + kvh) * seq * dim, dim};
  decode::attend<1>(q + size_t(pair) * dim, lens[b], dim, scale, rows, k, v, o + size_t(pair) * dim);
}

namespace {
void launch(const decode::Device& d) {
  const int warps = d.s.batch * d.s.heads;
  decode_contiguous<<<(warps + decode::kWarpsPerBlock - 1) / decode::kWarpsPerBlock, 32 * decode::kWarpsPerBlock>>>(
      d.q, d.k, d.v, d.lens, d.o, d.s.batch, d.s.seq, d.s.heads, d.s.kv_heads, d.s.dim, d.scale);
}

simt::kernels::Outputs run(const simt::kernels::Params& p) { return decode::run(p, launch); }

simt::kernels::Registration reg({"decode_contiguous",
                                 "decode attention, contiguous KV cache: a warp per (sequence, query head), online "
                                 "softmax",
                                 decode::params(), run, decode::check});
}  // namespace
