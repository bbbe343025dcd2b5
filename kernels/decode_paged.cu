// Decode attention over a paged KV cache, vLLM's PagedAttention layout
// (kernels/decode_common.cuh): K and V live in a pool of blocks of 16 tokens,
// [blocks][kv_heads][16][dim], and sequence b's j-th block of tokens is pool block
// block_table[b][j] (the table here is shuffled, so the indirection is real). One warp
// per (sequence, query head), as decode_contiguous: at every 16th token the warp loads
// the next table entry (one request, one sector: all lanes read the same int), and the
// following K and V loads wait for it. The rows inside a block are contiguous, so the
// K/V loads are the same coalesced 4-sector requests as decode_contiguous's: paging
// costs a table load per 16 tokens and a dependent round trip, not bandwidth, and
// lets the cache grow block by block with no copying and no fragmentation.
#include "kernels/decode_common.cuh"
#include "kernels/harness.hpp"
#include <cuda_runtime.h>

// Row offsets of one (sequence, KV head) through the block table: the table entry is
// loaded when a new block starts (tokens come in order) and kept in a register.
struct PagedRows {
  const int* table;  // this sequence's row of the block table
  int kv_heads, kvh, dim;
  mutable size_t block_base;
  __device__ size_t operator()(int t) const {
    if (t % decode::kBlockTokens == 0)
      block_base = (size_t(table[t / decode::kBlockTokens]) * kv_heads + kvh) * decode::kBlockTokens * dim;
    return block_base + size_t(t % decode::kBlockTokens) * dim;
  }
};

__global__ void decode_paged(const float* q, const float* k_pool, const float* v_pool, const int* lens,
                             const int* block_table, float* o, int batch, int max_blocks, int heads, int kv_heads,
                             int dim, float scale) {
  const int pair = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (pair >= batch * heads) return;  // whole warps leave together
  const int b = pair / heads, h = pair % heads, kvh = h / (heads / kv_heads);
  const PagedRows rows{block_table + size_t(b) * max_blocks, kv_heads, kvh, dim, 0};
  decode::attend<1>(q + size_t(pair) * dim, lens[b], dim, scale, rows, k_pool, v_pool, o + size_t(pair) * dim);
}

namespace {
void launch(const decode::Device& d) {
  const int warps = d.s.batch * d.s.heads;
  decode_paged<<<(warps + decode::kWarpsPerBlock - 1) / decode::kWarpsPerBlock, 32 * decode::kWarpsPerBlock>>>(
      d.q, d.k_pool, d.v_pool, d.lens, d.block_table, d.o, d.s.batch, d.s.max_blocks(), d.s.heads, d.s.kv_heads,
      d.s.dim, d.scale);
}

simt::kernels::Outputs run(const simt::kernels::Params& p) { return decode::run(p, launch); }

simt::kernels::Registration reg({"decode_paged",
                                 "decode attention, paged KV cache (vLLM: 16-token blocks via a shuffled block table)",
                                 decode::params(), run, decode::check});
}  // namespace
