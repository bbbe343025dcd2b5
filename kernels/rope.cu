// Rotary position embedding of q and k in place (kernels/decode_common.cuh, namespace
// rope), GPT-NeoX / Llama's half-split form: element i of a head pairs with element
// i + dim / 2. One launch for q and k together: a thread per pair (token, head, i),
// q's heads first, then k's; neighbouring threads take neighbouring i, so a warp's
// loads of x[i], x[i + dim / 2], cos[pos][i] and sin[pos][i] are each coalesced, and
// every element of q and k is read once and written once. The angles come from a
// cos/sin table built on the host (Llama's freqs_cis), so the kernel is 4 FMUL and 2
// FADD per pair and its bits do not depend on a GPU's sinf.
#include "kernels/decode_common.cuh"
#include "kernels/harness.hpp"
#include <cuda_runtime.h>

__global__ void rope_half_split(float* q, float* k, const float* cos_table, const float* sin_table, int tokens,
                                int heads, int kv_heads, int dim) {
  const int h = dim / 2;
  const size_t id = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const size_t q_pairs = size_t(tokens) * heads * h, k_pairs = size_t(tokens) * kv_heads * h;
  if (id >= q_pairs + k_pairs) return;
  const bool is_q = id < q_pairs;
  const size_t local = is_q ? id : id - q_pairs;
  const int i = int(local % h);
  const size_t head = local / h;  // token * heads_here + head
  const int token = int(head / (is_q ? heads : kv_heads));
  rope::rotate((is_q ? q : k) + head * dim, i, h, cos_table[size_t(token) * h + i], sin_table[size_t(token) * h + i]);
}

namespace {
void launch(float* q, float* k, const float* cos_table, const float* sin_table, const rope::Shape& s) {
  const size_t pairs = size_t(s.tokens) * (s.heads + s.kv_heads) * (s.dim / 2);
  constexpr int kThreads = 256;
  rope_half_split<<<int((pairs + kThreads - 1) / kThreads), kThreads>>>(q, k, cos_table, sin_table, s.tokens, s.heads,
                                                                       s.kv_heads, s.dim);
}

simt::kernels::Outputs run(const simt::kernels::Params& p) { return rope::run(p, launch); }

simt::kernels::Registration reg({"rope", "rotary embedding of q and k in place (GPT-NeoX/Llama half-split), 1 launch",
                                 rope::params(), run, rope::check});
}  // namespace
