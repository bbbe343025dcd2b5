// Decode attention with grouped KV heads (GQA, kernels/decode_common.cuh): one warp
// per (sequence, KV head) serves all heads / kv_heads query heads that share it. Each
// token's K and V rows are loaded once and used for every query head of the group
// (one partial dot product, one shuffle sum and one online-softmax step per head), so
// the cache is read once per group instead of once per query head as in
// decode_contiguous: Llama 3 8B's 32 query heads share 8 KV heads, a quarter of the
// KV traffic. The per-head arithmetic is decode_contiguous's, in the same order: the
// same bits. The price: fewer warps (batch x kv_heads) each doing group times the work.
#include "kernels/decode_common.cuh"
#include "kernels/harness.hpp"
#include <cuda_runtime.h>

__global__ void decode_gqa(const float* q, const float* k, const float* v, const int* lens, float* o, int batch,
                           int seq, int heads, int kv_heads, int dim, float scale) {
  const int pair = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (pair >= batch * kv_heads) return;  // whole warps leave together
  const int b = pair / kv_heads, kvh = pair % kv_heads, group = heads / kv_heads;
  const decode::ContiguousRows rows{(size_t(b) * kv_heads + kvh) * seq * dim, dim};
  const size_t first_head = size_t(b) * heads + size_t(kvh) * group;  // the group's query heads are consecutive
  decode::attend_group(q + first_head * dim, group, lens[b], dim, scale, rows, k, v, o + first_head * dim);
}

namespace {
void launch(const decode::Device& d) {
  const int warps = d.s.batch * d.s.kv_heads;
  decode_gqa<<<(warps + decode::kWarpsPerBlock - 1) / decode::kWarpsPerBlock, 32 * decode::kWarpsPerBlock>>>(
      d.q, d.k, d.v, d.lens, d.o, d.s.batch, d.s.seq, d.s.heads, d.s.kv_heads, d.s.dim, d.scale);
}

simt::kernels::Outputs run(const simt::kernels::Params& p) { return decode::run(p, launch); }

simt::kernels::Registration reg({"decode_gqa",
                                 "decode attention, grouped KV heads: a warp per KV head serves its query heads, KV "
                                 "read once per group",
                                 decode::params(), run, decode::check});
}  // namespace
