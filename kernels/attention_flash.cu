// FlashAttention-2's forward, fp32, one launch (the kernel and its comments are in
// kernels/attention_flash.cuh, shared with attention_flash_backward.cu): a block
// per 64-query tile and head, K and V through shared memory in tiles of 32 keys,
// online softmax with the output rescaled, L written for the backward.
// Against attention_naive: no N x N matrix anywhere; global memory sees Q, K, V, O
// and L, with K and V re-read once per query tile (from L2).
#include "kernels/attention_common.cuh"
#include "kernels/attention_flash.cuh"
#include "kernels/harness.hpp"
#include <cuda_runtime.h>

namespace {

using namespace simt::kernels;

void launch(const float* q, const float* k, const float* v, float* o, float* l, const attention::Shape& s) {
  attention::launch_flash_forward(q, k, v, o, l, s.bh(), s.n, s.d, s.scale, s.causal);
}

Outputs run(const Params& p) { return attention::run_forward(p, true, launch); }

Registration reg({"attention_flash",
                  "FlashAttention-2 forward, fp32: a block per query tile, K/V tiles in shared memory, online "
                  "softmax, logsumexp out",
                  attention::params(), run, attention::check_forward});

}  // namespace
