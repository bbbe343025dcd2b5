// Standard attention, the textbook (FlashAttention's Algorithm 0): three launches
// with the N x N matrix in global memory between them.
//   1. attention_naive_scores   S = Q K^T * scale, 16 x 16 shared-memory tiles (one
//                               thread per element of S); causal: j > i written as -inf
//   2. attention_naive_softmax  a warp per row of S: max, sum of exp, then P = exp(s -
//                               max) / sum written over S in place (masked entries 0)
//   3. attention_naive_pv       O = P V, 16 x 16 tiles again, over all N keys
// Each launch is coalesced and its loads tiled; what makes it slow is S itself:
// N*N*4 bytes per head written by the first launch, read and rewritten by the
// second, read by the third, against N*d*4 for each of Q, K, V and O. At N = 256,
// d = 64 that is 256 KiB of S against 64 KiB per input; the ratio grows with N.
#include "kernels/attention_common.cuh"
#include "kernels/attention_naive.cuh"
#include "kernels/harness.hpp"
#include <cuda_runtime.h>

namespace {

using namespace simt::kernels;
constexpr int kTile = 16, kWarps = 4;

void launch(const float* q, const float* k, const float* v, float* o, float*, const attention::Shape& s) {
  float* scores;  // S, then P: (B, H, N, N)
  cudaMalloc(&scores, s.rows() * s.n * sizeof(float));
  const dim3 block(kTile, kTile);
  const int tiles = (s.n + kTile - 1) / kTile;
  attention_naive_scores<kTile><<<dim3(tiles, tiles, s.bh()), block>>>(q, k, scores, s.n, s.d, s.scale, s.causal);
  const int rows = int(s.rows());
  attention_naive_softmax<kWarps><<<(rows + kWarps - 1) / kWarps, 32 * kWarps>>>(scores, rows, s.n, s.causal);
  attention_naive_pv<kTile><<<dim3(s.d / kTile, tiles, s.bh()), block>>>(scores, v, o, s.n, s.d);
  cudaFree(scores);
}

Outputs run(const Params& p) { return attention::run_forward(p, false, launch); }

Registration reg({"attention_naive",
                  "attention in 3 launches: S = QK^T to global memory, softmax in place, O = PV (N x N through HBM)",
                  attention::params(), run, attention::check_forward});

}  // namespace
