// The textbook backward (FlashAttention's Algorithm 3), for comparison with
// attention_flash_backward: the driver runs attention_naive's three launches and
// keeps P (N x N per head) in global memory, then five more, the N x N matrices
// going through global memory between them:
//   1. attention_naive_atb               dV = P^T dO (16 x 16 tiles)
//   2. attention_naive_scores            dP = dO V^T (attention_naive's scores kernel)
//   3. attention_naive_softmax_backward  a warp per row: D = sum_j P dP, then
//                                        dS = P (dP - D) * scale over dP in place
//   4. attention_naive_pv                dQ = dS K (the forward's P V kernel)
//   5. attention_naive_atb               dK = dS^T Q
// Four products of 2*N*N*d FLOPs per head, none recomputed, against the flash
// backward's seven; but P is read twice, dP written and read, dS written and read
// twice: 7 N x N passes per head (plus the forward's 4) against none.
#include "kernels/attention_common.cuh"
#include "kernels/attention_naive.cuh"
#include "kernels/harness.hpp"
#include <cuda_runtime.h>

namespace {

using namespace simt::kernels;
constexpr int kTile = 16, kWarps = 4;

Outputs run(const Params& p) {
  const attention::Shape s = attention::shape(p);
  const attention::Inputs in = attention::inputs(s);
  float *q = attention::upload(in.q), *k = attention::upload(in.k), *v = attention::upload(in.v),
        *d_o = attention::upload(in.d_o);
  float *o, *dq, *dk, *dv, *probs, *grads;  // P, and dP then dS: (B, H, N, N)
  for (float** b : {&o, &dq, &dk, &dv}) cudaMalloc(b, s.size() * sizeof(float));
  for (float** b : {&probs, &grads}) cudaMalloc(b, s.rows() * s.n * sizeof(float));
  const dim3 block(kTile, kTile);
  const int tiles = (s.n + kTile - 1) / kTile, rows = int(s.rows());
  const dim3 square(tiles, tiles, s.bh()), tall(s.d / kTile, tiles, s.bh());
  const int row_blocks = (rows + kWarps - 1) / kWarps;
  // The forward, attention_naive's launches: P stays.
  attention_naive_scores<kTile><<<square, block>>>(q, k, probs, s.n, s.d, s.scale, s.causal);
  attention_naive_softmax<kWarps><<<row_blocks, 32 * kWarps>>>(probs, rows, s.n, s.causal);
  attention_naive_pv<kTile><<<tall, block>>>(probs, v, o, s.n, s.d);
  // The backward. Masked entries have P = 0, so dS = 0 there whatever dP is.
  attention_naive_atb<kTile><<<tall, block>>>(probs, d_o, dv, s.n, s.d);
  attention_naive_scores<kTile><<<square, block>>>(d_o, v, grads, s.n, s.d, 1.0f, false);
  attention_naive_softmax_backward<kWarps><<<row_blocks, 32 * kWarps>>>(probs, grads, rows, s.n, s.scale);
  attention_naive_pv<kTile><<<tall, block>>>(grads, k, dq, s.n, s.d);
  attention_naive_atb<kTile><<<tall, block>>>(grads, q, dk, s.n, s.d);
  Outputs out{{{"dq", attention::download(dq, s.size())},
               {"dk", attention::download(dk, s.size())},
               {"dv", attention::download(dv, s.size())}}};
  for (float* b : {q, k, v, d_o, o, dq, dk, dv, probs, grads}) cudaFree(b);
  return out;
}

Registration reg({"attention_naive_backward",
                  "textbook attention backward: P kept from the forward, dV, dP, dS, dQ, dK through global memory "
                  "(N x N passes)",
                  attention::params(), run, attention::check_backward});

}  // namespace
