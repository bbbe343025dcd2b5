// moe.cu: a mixture-of-experts layer with expert parallelism (GShard / Switch
// Transformer) over the N devices of one process; one host thread drives every rank.
//
// The model (one MoE feed-forward layer, trained on its own):
//   x      = data W_in^T                     dense, replicated (data parallel)
//   p      = softmax(x W_r^T)                the router, E experts, replicated
//   top-k  experts per token by p (ties: lower index); gate = p of that expert
//   expert e: y_e(x) = GELU(x W1_e^T + b1_e) W2_e^T + b2_e
//   out[n] = sum over the token's kept choices of gate * y_e(x[n])
//   loss   = 1/2 mean over tokens and channels of (out - target)^2, target hashed
// Capacity: each expert takes at most cap = ceil(capacity_factor * k * T / E) tokens
// from each rank's T tokens, first come first served in token order; a choice past
// that is dropped (its token gets nothing from that expert, as in Switch).
//
// What each rank holds: W_in and W_r (replicated; their gradients all-reduced), E/N
// experts (rank r: experts [r E/N, (r+1) E/N)) with their gradients and optimizer
// state; its own T tokens.
//
// Communication, all-to-all built from grouped ncclSend/ncclRecv (NCCL has no
// all-to-all call: the group of N sends and N receives per rank is how NCCL's docs
// write one). Every rank packs, for every expert, cap token rows of C floats (empty
// slots zero), so each pair of ranks exchanges (E/N) cap C floats each way:
//   forward  dispatch: tokens to their experts' ranks; combine: expert outputs back
//   backward dispatch: gate * d(out) to the experts; combine: d(expert input) back
//   then one all-reduce of the dense gradients (W_in, W_r).
// Bytes each rank sends per step: 4 all-to-alls x (N-1)/N x E cap C x 4 bytes, plus
// the all-reduce's 2 (N-1)/N x 4 (C D_in + E C). Load imbalance is visible in the
// tokens each expert was given and the choices dropped for capacity.
//
// Self-check: one device running all E experts on the same N chunks of T tokens (the
// same routing and capacity per chunk, the same slot layout, so each expert sees the
// same rows in the same order): expert weights must match BIT FOR BIT; the dense
// gradients are a sum over ranks (ring order) against a running sum over chunks, equal
// bit for bit with 2 ranks and within 1e-4 of each tensor's largest otherwise; losses
// within 1e-5; SGD's weights within 1e-6.
//
// Build: simt exec --gpus 4 kernels/parallel/moe.cu -- --experts 8 --top-k 2
//        nvcc -std=c++20 --fmad=false -arch=sm_90 kernels/parallel/moe.cu -lnccl
#include <cuda_runtime.h>
#include <nccl.h>

#include "tiny_gpt.cuh"

namespace {
using tg::blocks_for;
using tg::kThreads;

// probs = softmax(logits) per row (a thread per row)
__global__ void softmax_rows(float* probs, const float* logits, int rows, int E) {
  const int n = blockIdx.x * blockDim.x + threadIdx.x;
  if (n >= rows) return;
  float m = -INFINITY;
  for (int e = 0; e < E; ++e) m = fmaxf(m, logits[size_t(n) * E + e]);
  float s = 0.0f;
  for (int e = 0; e < E; ++e) s += expf(logits[size_t(n) * E + e] - m);
  for (int e = 0; e < E; ++e) probs[size_t(n) * E + e] = expf(logits[size_t(n) * E + e] - m) / s;
}
// choice[n, j] = the j-th largest expert of token n (a thread per token)
__global__ void topk(int* choice, const float* probs, int T, int E, int k) {
  const int n = blockIdx.x * blockDim.x + threadIdx.x;
  if (n >= T) return;
  for (int j = 0; j < k; ++j) {
    int best = -1;
    for (int e = 0; e < E; ++e) {
      bool taken = false;
      for (int i = 0; i < j; ++i) taken = taken || choice[size_t(n) * k + i] == e;
      if (!taken && (best < 0 || probs[size_t(n) * E + e] > probs[size_t(n) * E + best])) best = e;
    }
    choice[size_t(n) * k + j] = best;
  }
}
// Capacity, first come first served in (token, choice) order: a thread per expert.
// slot[n, j] = the choice's slot in its expert, or -1 when dropped; slot_token[e, s] =
// the token in slot s of expert e, or -1; slot_gate[e, s] its gate; load[e] = tokens
// that chose e (kept or not).
__global__ void assign_slots(int* slot, int* slot_token, float* slot_gate, int* load, const int* choice,
                             const float* probs, int T, int E, int k, int cap) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= E) return;
  int used = 0, chose = 0;
  for (int n = 0; n < T; ++n)
    for (int j = 0; j < k; ++j) {
      if (choice[size_t(n) * k + j] != e) continue;
      ++chose;
      if (used < cap) {
        slot[size_t(n) * k + j] = used;
        slot_token[size_t(e) * cap + used] = n;
        slot_gate[size_t(e) * cap + used] = probs[size_t(n) * E + e];
        ++used;
      } else {
        slot[size_t(n) * k + j] = -1;
      }
    }
  for (int s = used; s < cap; ++s) {
    slot_token[size_t(e) * cap + s] = -1;
    slot_gate[size_t(e) * cap + s] = 0.0f;
  }
  load[e] = chose;
}
// buf[e, s, c] = (gated ? gate * ) src[token, c], or 0 for an empty slot
__global__ void pack(float* buf, const float* src, const int* slot_token, const float* slot_gate, int E, int cap, int C,
                     int gated) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= size_t(E) * cap * C) return;
  const int c = int(i % C);
  const size_t es = i / C;
  const int n = slot_token[es];
  buf[i] = n < 0 ? 0.0f : (gated ? slot_gate[es] * src[size_t(n) * C + c] : src[size_t(n) * C + c]);
}
// out[n, c] = sum over kept choices of gate * y[e, slot, c]
__global__ void combine(float* out, const float* y, const int* choice, const int* slot, const float* probs, int T,
                        int E, int k, int cap, int C) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= size_t(T) * C) return;
  const int n = int(i / C), c = int(i % C);
  float s = 0.0f;
  for (int j = 0; j < k; ++j) {
    const int sl = slot[size_t(n) * k + j];
    if (sl < 0) continue;
    const int e = choice[size_t(n) * k + j];
    s += probs[size_t(n) * E + e] * y[(size_t(e) * cap + sl) * C + c];
  }
  out[i] = s;
}
// dx[n, c] = sum over kept choices of dxs[e, slot, c]   (the combine of backward)
__global__ void uncombine(float* dx, const float* dxs, const int* choice, const int* slot, int T, int k, int cap, int C) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= size_t(T) * C) return;
  const int n = int(i / C), c = int(i % C);
  float s = 0.0f;
  for (int j = 0; j < k; ++j) {
    const int sl = slot[size_t(n) * k + j];
    if (sl >= 0) s += dxs[(size_t(choice[size_t(n) * k + j]) * cap + sl) * C + c];
  }
  dx[i] = s;
}
// Router backward: dp[n, e] = d(out[n]) . y[e, slot] for kept choices (0 otherwise);
// dlogits = p * (dp - sum_e p dp). A thread per token.
__global__ void router_bwd(float* dlogits, const float* dout, const float* y, const int* choice, const int* slot,
                           const float* probs, int T, int E, int k, int cap, int C) {
  const int n = blockIdx.x * blockDim.x + threadIdx.x;
  if (n >= T) return;
  float dot = 0.0f;
  for (int j = 0; j < k; ++j) {
    const int sl = slot[size_t(n) * k + j];
    if (sl < 0) continue;
    const int e = choice[size_t(n) * k + j];
    float dp = 0.0f;
    for (int c = 0; c < C; ++c) dp += dout[size_t(n) * C + c] * y[(size_t(e) * cap + sl) * C + c];
    dot += probs[size_t(n) * E + e] * dp;
    dlogits[size_t(n) * E + e] = dp;  // temporarily dp
  }
  for (int e = 0; e < E; ++e) {
    bool kept = false;
    for (int j = 0; j < k; ++j) kept = kept || (choice[size_t(n) * k + j] == e && slot[size_t(n) * k + j] >= 0);
    const float dp = kept ? dlogits[size_t(n) * E + e] : 0.0f;
    dlogits[size_t(n) * E + e] = probs[size_t(n) * E + e] * (dp - dot);
  }
}
// Experts, batched: rows of [S sources][Le experts][cap] (a source's block of Le*cap
// rows is what it sent), expert le's weights W[le] [OUT, IN].
__global__ void expert_fwd(float* out, const float* in, const float* W, const float* b, int S, int Le, int cap, int IN,
                           int OUT, size_t wstride, size_t bstride) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= size_t(S) * Le * cap * OUT) return;
  const int o = int(i % OUT);
  const size_t row = i / OUT;
  const int le = int(row / cap % Le);
  const float* w = W + le * wstride + size_t(o) * IN;
  float s = 0.0f;
  for (int j = 0; j < IN; ++j) s += in[row * IN + j] * w[j];
  out[i] = s + b[le * bstride + o];
}
__global__ void expert_bwd_inp(float* din, const float* dout, const float* W, int S, int Le, int cap, int IN, int OUT,
                               size_t wstride) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= size_t(S) * Le * cap * IN) return;
  const int j = int(i % IN);
  const size_t row = i / IN;
  const int le = int(row / cap % Le);
  float s = 0.0f;
  for (int o = 0; o < OUT; ++o) s += dout[row * OUT + o] * W[le * wstride + size_t(o) * IN + j];
  din[i] = s;
}
// dW[le, o, j] += sum over rows of expert le (sources in order, then slots) of dout * in; db likewise
__global__ void expert_bwd_w(float* dW, float* db, const float* dout, const float* in, int S, int Le, int cap, int IN,
                             int OUT, size_t wstride, size_t bstride) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= size_t(Le) * OUT * (IN + 1)) return;
  const int le = int(i / (size_t(OUT) * (IN + 1)));
  const int r = int(i % (size_t(OUT) * (IN + 1)));
  const int o = r / (IN + 1), j = r % (IN + 1);  // j == IN: the bias
  float s = 0.0f;
  for (int src = 0; src < S; ++src)
    for (int sl = 0; sl < cap; ++sl) {
      const size_t row = (size_t(src) * Le + le) * cap + sl;
      s += dout[row * OUT + o] * (j == IN ? 1.0f : in[row * IN + j]);
    }
  if (j == IN) db[le * bstride + o] += s;
  else dW[le * wstride + size_t(o) * IN + j] += s;
}
__global__ void mse_bwd(float* dout, float* sq, const float* out, const float* target, size_t n, float scale) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float d = out[i] - target[i];
  sq[i] = d * d;
  dout[i] = d * scale;
}

struct Sizes {
  int Din = 32, C = 32, H = 64, E = 4, k = 2, T = 32;  // T tokens per rank per step
  float cf = 1.25f;
  int cap() const { return int(std::ceil(cf * k * T / E)); }
};
// Parameters: dense [W_in (C x Din) | W_r (E x C)], experts per expert [W1 (H x C) | b1 (H) | W2 (C x H) | b2 (C)].
size_t dense_size(const Sizes& z) { return size_t(z.C) * z.Din + size_t(z.E) * z.C; }
size_t expert_size(const Sizes& z) { return size_t(z.H) * z.C + z.H + size_t(z.C) * z.H + z.C; }
float init_dense(unsigned seed, size_t i, const Sizes& z) {
  const float s = i < size_t(z.C) * z.Din ? 1.0f / std::sqrt(float(z.Din)) : 1.0f / std::sqrt(float(z.C));
  return s * tg::hash_uniform(seed, 0xde05e, uint32_t(i));
}
float init_expert(unsigned seed, int e, size_t i, const Sizes& z) {
  const size_t w1 = size_t(z.H) * z.C, b1 = w1 + z.H, w2 = b1 + size_t(z.C) * z.H;
  if ((i >= w1 && i < b1) || i >= w2) return 0.0f;  // biases
  const float s = i < w1 ? 1.0f / std::sqrt(float(z.C)) : 1.0f / std::sqrt(float(z.H));
  return s * 1.7320508f * tg::hash_uniform(seed, 0xe0000u + uint32_t(e), uint32_t(i));
}
// The data of chunk (step, source): T rows of Din; targets T rows of C.
void make_data(unsigned seed, const Sizes& z, int step, int src, std::vector<float>& x, std::vector<float>& t) {
  x.resize(size_t(z.T) * z.Din);
  t.resize(size_t(z.T) * z.C);
  const uint32_t chunk = uint32_t(step * 1000 + src);
  for (size_t i = 0; i < x.size(); ++i) x[i] = tg::hash_uniform(seed, 0xda7a0000u + chunk, uint32_t(i));
  for (size_t i = 0; i < t.size(); ++i) t[i] = 0.5f * tg::hash_uniform(seed, 0x7a760000u + chunk, uint32_t(i));
}

// One source chunk's routing state and buffers (every rank has one; the reference N).
struct Chunk {
  float *data, *target, *x, *logits, *probs, *out, *dout, *sq, *dx, *dlogits;
  int *choice, *slot, *slot_token, *load;
  float* slot_gate;
};
Chunk alloc_chunk(tg::MemLedger& m, const Sizes& z) {
  Chunk c;
  const size_t T = size_t(z.T);
  c.data = m.alloc<float>(T * z.Din, tg::kActs); c.target = m.alloc<float>(T * z.C, tg::kActs);
  c.x = m.alloc<float>(T * z.C, tg::kActs); c.logits = m.alloc<float>(T * z.E, tg::kActs);
  c.probs = m.alloc<float>(T * z.E, tg::kActs); c.out = m.alloc<float>(T * z.C, tg::kActs);
  c.dout = m.alloc<float>(T * z.C, tg::kWork); c.sq = m.alloc<float>(T * z.C, tg::kWork);
  c.dx = m.alloc<float>(T * z.C, tg::kWork); c.dlogits = m.alloc<float>(T * z.E, tg::kWork);
  c.choice = m.alloc<int>(T * z.k, tg::kActs); c.slot = m.alloc<int>(T * z.k, tg::kActs);
  c.slot_token = m.alloc<int>(size_t(z.E) * z.cap(), tg::kActs); c.load = m.alloc<int>(size_t(z.E), tg::kActs);
  c.slot_gate = m.alloc<float>(size_t(z.E) * z.cap(), tg::kActs);
  return c;
}
// Forward up to the packed dispatch buffer [E][cap][C] (`send`).
void route(const Chunk& c, const Sizes& z, const float* dense, float* send, cudaStream_t st) {
  const int T = z.T;
  tg::matmul_fwd<<<blocks_for(size_t(T) * z.C), kThreads, 0, st>>>(c.x, c.data, dense, nullptr, T, z.Din, z.C);
  tg::matmul_fwd<<<blocks_for(size_t(T) * z.E), kThreads, 0, st>>>(c.logits, c.x, dense + size_t(z.C) * z.Din, nullptr,
                                                                   T, z.C, z.E);
  softmax_rows<<<blocks_for(T), kThreads, 0, st>>>(c.probs, c.logits, T, z.E);
  topk<<<blocks_for(T), kThreads, 0, st>>>(c.choice, c.probs, T, z.E, z.k);
  assign_slots<<<blocks_for(z.E), kThreads, 0, st>>>(c.slot, c.slot_token, c.slot_gate, c.load, c.choice, c.probs, T,
                                                     z.E, z.k, z.cap());
  pack<<<blocks_for(size_t(z.E) * z.cap() * z.C), kThreads, 0, st>>>(send, c.x, c.slot_token, c.slot_gate, z.E, z.cap(),
                                                                       z.C, 0);
}
// The experts of one rank on rows [S][Le][cap][C]: forward, and backward from dy.
struct ExpertBufs {
  float *in, *h, *g, *y, *dy, *dg, *din;
};
ExpertBufs alloc_expert_bufs(tg::MemLedger& m, const Sizes& z, int S, int Le) {
  const size_t rows = size_t(S) * Le * z.cap();
  ExpertBufs b;
  b.in = m.alloc<float>(rows * z.C, tg::kActs); b.h = m.alloc<float>(rows * z.H, tg::kActs);
  b.g = m.alloc<float>(rows * z.H, tg::kActs); b.y = m.alloc<float>(rows * z.C, tg::kActs);
  b.dy = m.alloc<float>(rows * z.C, tg::kWork); b.dg = m.alloc<float>(rows * z.H, tg::kWork);
  b.din = m.alloc<float>(rows * z.C, tg::kWork);
  return b;
}
void experts_forward(const ExpertBufs& b, const float* P, const Sizes& z, int S, int Le, cudaStream_t st) {
  const size_t es = expert_size(z), rows = size_t(S) * Le * z.cap();
  const float *W1 = P, *b1 = P + size_t(z.H) * z.C, *W2 = b1 + z.H, *b2 = W2 + size_t(z.C) * z.H;
  expert_fwd<<<blocks_for(rows * z.H), kThreads, 0, st>>>(b.h, b.in, W1, b1, S, Le, z.cap(), z.C, z.H, es, es);
  tg::gelu_fwd<<<blocks_for(rows * z.H), kThreads, 0, st>>>(b.g, b.h, rows * z.H);
  expert_fwd<<<blocks_for(rows * z.C), kThreads, 0, st>>>(b.y, b.g, W2, b2, S, Le, z.cap(), z.H, z.C, es, es);
}
void experts_backward(const ExpertBufs& b, const float* P, float* G, const Sizes& z, int S, int Le, cudaStream_t st) {
  const size_t es = expert_size(z), rows = size_t(S) * Le * z.cap();
  const float *W1 = P, *W2 = P + size_t(z.H) * z.C + z.H;
  float *gW1 = G, *gb1 = G + size_t(z.H) * z.C, *gW2 = gb1 + z.H, *gb2 = gW2 + size_t(z.C) * z.H;
  expert_bwd_w<<<blocks_for(size_t(Le) * z.C * (z.H + 1)), kThreads, 0, st>>>(gW2, gb2, b.dy, b.g, S, Le, z.cap(), z.H,
                                                                              z.C, es, es);
  expert_bwd_inp<<<blocks_for(rows * z.H), kThreads, 0, st>>>(b.dg, b.dy, W2, S, Le, z.cap(), z.H, z.C, es);
  tg::gelu_bwd<<<blocks_for(rows * z.H), kThreads, 0, st>>>(b.dg, b.h, b.dg, rows * z.H);
  expert_bwd_w<<<blocks_for(size_t(Le) * z.H * (z.C + 1)), kThreads, 0, st>>>(gW1, gb1, b.dg, b.in, S, Le, z.cap(), z.C,
                                                                              z.H, es, es);
  expert_bwd_inp<<<blocks_for(rows * z.C), kThreads, 0, st>>>(b.din, b.dg, W1, S, Le, z.cap(), z.C, z.H, es);
}
// After the combine (y of this chunk's slots at `yback` [E][cap][C]): loss gradient and
// the packed gate * d(out) for the experts (`dsend`).
void loss_and_dispatch_grad(const Chunk& c, const Sizes& z, const float* yback, float* dsend, float scale,
                            cudaStream_t st) {
  const int T = z.T;
  combine<<<blocks_for(size_t(T) * z.C), kThreads, 0, st>>>(c.out, yback, c.choice, c.slot, c.probs, T, z.E, z.k,
                                                            z.cap(), z.C);
  mse_bwd<<<blocks_for(size_t(T) * z.C), kThreads, 0, st>>>(c.dout, c.sq, c.out, c.target, size_t(T) * z.C, scale);
  pack<<<blocks_for(size_t(z.E) * z.cap() * z.C), kThreads, 0, st>>>(dsend, c.dout, c.slot_token, c.slot_gate, z.E,
                                                                       z.cap(), z.C, 1);
}
// After the backward combine (d expert input at `dxback` [E][cap][C]): router and W_in grads.
void dense_backward(const Chunk& c, const Sizes& z, const float* dense, float* gdense, const float* yback,
                    const float* dxback, cudaStream_t st) {
  const int T = z.T;
  const float* Wr = dense + size_t(z.C) * z.Din;
  router_bwd<<<blocks_for(T), kThreads, 0, st>>>(c.dlogits, c.dout, yback, c.choice, c.slot, c.probs, T, z.E, z.k,
                                                 z.cap(), z.C);
  uncombine<<<blocks_for(size_t(T) * z.C), kThreads, 0, st>>>(c.dx, dxback, c.choice, c.slot, T, z.k, z.cap(), z.C);
  tg::matmul_bwd_w<<<blocks_for(size_t(z.E) * z.C), kThreads, 0, st>>>(gdense + size_t(z.C) * z.Din, c.dlogits, c.x, T,
                                                                       z.C, z.E);
  tg::matmul_bwd_inp<<<blocks_for(size_t(T) * z.C), kThreads, 0, st>>>(c.dx, c.dlogits, Wr, T, z.C, z.E, 1);
  tg::matmul_bwd_w<<<blocks_for(size_t(z.C) * z.Din), kThreads, 0, st>>>(gdense, c.dx, c.data, T, z.Din, z.C);
}

struct Rank {
  int dev;
  ncclComm_t comm;
  cudaStream_t st;
  tg::MemLedger mem;
  float *dense, *gdense, *experts, *gexperts;  // experts: Le of them
  float *send, *yback, *dsend, *dxback;        // [E][cap][C] each
  Chunk ch;
  ExpertBufs eb;  // [N sources][Le][cap]
  cudaEvent_t sending;
};

}  // namespace

int main(int argc, char** argv) {
  Sizes z;
  int ranks_req = 0, steps = 3;
  float lr = 0.1f;
  unsigned seed = 1234;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    if (tg::arg_is(a, "--ranks")) ranks_req = std::atoi(tg::arg_value(argc, argv, i));
    else if (tg::arg_is(a, "--experts")) z.E = std::atoi(tg::arg_value(argc, argv, i));
    else if (tg::arg_is(a, "--top-k")) z.k = std::atoi(tg::arg_value(argc, argv, i));
    else if (tg::arg_is(a, "--capacity-factor")) z.cf = float(std::atof(tg::arg_value(argc, argv, i)));
    else if (tg::arg_is(a, "--tokens")) z.T = std::atoi(tg::arg_value(argc, argv, i));
    else if (tg::arg_is(a, "--d")) z.C = std::atoi(tg::arg_value(argc, argv, i));
    else if (tg::arg_is(a, "--d-in")) z.Din = std::atoi(tg::arg_value(argc, argv, i));
    else if (tg::arg_is(a, "--hidden")) z.H = std::atoi(tg::arg_value(argc, argv, i));
    else if (tg::arg_is(a, "--steps")) steps = std::atoi(tg::arg_value(argc, argv, i));
    else if (tg::arg_is(a, "--lr")) lr = float(std::atof(tg::arg_value(argc, argv, i)));
    else if (tg::arg_is(a, "--seed")) seed = unsigned(std::strtoul(tg::arg_value(argc, argv, i), nullptr, 10));
    else {
      std::printf("usage: moe [--ranks N] [--experts E (4)] [--top-k k (2)] [--capacity-factor f (1.25)]\n"
                  "           [--tokens T per rank (32)] [--d C (32)] [--d-in D (32)] [--hidden H (64)] [--steps (3)]\n"
                  "           [--lr (0.1, SGD)] [--seed S]\n");
      return tg::arg_is(a, "--help") ? 0 : 2;
    }
  }
  const int N = tg::resolve_ranks(ranks_req);
  if (z.E % N || z.k < 1 || z.k > z.E || z.T < 1 || z.cf <= 0 || steps < 1) {
    std::fprintf(stderr, "need experts %% ranks == 0, 1 <= top-k <= experts, tokens >= 1, capacity factor > 0\n");
    return 2;
  }
  const int Le = z.E / N, cap = z.cap();
  const size_t ES = expert_size(z), DS = dense_size(z), slab = size_t(Le) * cap * z.C;
  std::printf("moe: %d ranks, %d experts (%d per rank), top-%d, capacity factor %g: %d slots per expert per rank\n", N,
              z.E, Le, z.k, z.cf, cap);
  std::printf("model: d_in %d, d %d, expert hidden %d, %d tokens per rank, SGD lr %g, %d steps\n", z.Din, z.C, z.H, z.T,
              lr, steps);

  std::vector<float> h_dense(DS), h_experts(size_t(z.E) * ES);
  for (size_t i = 0; i < DS; ++i) h_dense[i] = init_dense(seed, i, z);
  for (int e = 0; e < z.E; ++e)
    for (size_t i = 0; i < ES; ++i) h_experts[size_t(e) * ES + i] = init_expert(seed, e, i, z);

  std::vector<ncclComm_t> comms(static_cast<size_t>(N));
  std::vector<int> devs(static_cast<size_t>(N));
  for (int r = 0; r < N; ++r) devs[size_t(r)] = r;
  NCCL_CHECK(ncclCommInitAll(comms.data(), N, devs.data()));
  std::vector<Rank> R(static_cast<size_t>(N));
  for (int r = 0; r < N; ++r) {
    Rank& k = R[size_t(r)];
    k.dev = r;
    k.comm = comms[size_t(r)];
    CUDA_CHECK(cudaSetDevice(r));
    CUDA_CHECK(cudaStreamCreate(&k.st));
    CUDA_CHECK(cudaEventCreateWithFlags(&k.sending, cudaEventDisableTiming));
    k.dense = k.mem.alloc<float>(DS, tg::kParams);
    k.experts = k.mem.alloc<float>(size_t(Le) * ES, tg::kParams);
    k.gdense = k.mem.alloc<float>(DS, tg::kGrads);
    k.gexperts = k.mem.alloc<float>(size_t(Le) * ES, tg::kGrads);
    CUDA_CHECK(cudaMemcpy(k.dense, h_dense.data(), DS * 4, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(k.experts, h_experts.data() + size_t(r) * Le * ES, size_t(Le) * ES * 4, cudaMemcpyHostToDevice));
    k.send = k.mem.alloc<float>(size_t(z.E) * cap * z.C, tg::kWork);
    k.yback = k.mem.alloc<float>(size_t(z.E) * cap * z.C, tg::kActs);
    k.dsend = k.mem.alloc<float>(size_t(z.E) * cap * z.C, tg::kWork);
    k.dxback = k.mem.alloc<float>(size_t(z.E) * cap * z.C, tg::kWork);
    k.ch = alloc_chunk(k.mem, z);
    k.eb = alloc_expert_bufs(k.mem, z, N, Le);
  }
  auto each = [&](auto fn) {
    for (auto& k : R) {
      CUDA_CHECK(cudaSetDevice(k.dev));
      fn(k);
    }
  };
  // all-to-all: rank r's from[r] + d*slab goes to rank d's to[d] + r*slab
  long a2a = 0;
  auto all_to_all = [&](auto from, auto to) {
    // A rank's own slab is a device-to-device copy (NCCL, and simtlab since it
    // learned to, also accept a send to oneself, as NCCL's all-to-all example does).
    each([&](Rank& k) {
      CUDA_CHECK(cudaMemcpyAsync(to(k) + size_t(k.dev) * slab, from(k) + size_t(k.dev) * slab, slab * 4,
                                 cudaMemcpyDeviceToDevice, k.st));
    });
    // Every rank's stream waits for the point where every other rank sends. NCCL
    // implies it (a receive ends after its send starts); written out, it shows the
    // dependency and costs nothing (README.md: simtlab's clock once missed it).
    each([&](Rank& k) { CUDA_CHECK(cudaEventRecord(k.sending, k.st)); });
    each([&](Rank& k) {
      for (auto& o : R)
        if (&o != &k) CUDA_CHECK(cudaStreamWaitEvent(k.st, o.sending, 0));
    });
    NCCL_CHECK(ncclGroupStart());
    for (auto& k : R)
      for (int d = 0; d < N; ++d) {
        if (d == k.dev) continue;
        NCCL_CHECK(ncclSend(from(k) + size_t(d) * slab, slab, ncclFloat, d, k.comm, k.st));
        NCCL_CHECK(ncclRecv(to(k) + size_t(d) * slab, slab, ncclFloat, d, k.comm, k.st));
      }
    NCCL_CHECK(ncclGroupEnd());
    ++a2a;
  };
  const float scale = 1.0f / float(size_t(N) * z.T * z.C);

  tg::StepTimer timer;
  CUDA_CHECK(cudaSetDevice(0));
  timer.init();
  std::vector<double> losses, ms;
  std::vector<int> load_total(size_t(z.E), 0);
  long dropped = 0, choices = 0;
  for (int step = 1; step <= steps; ++step) {
    a2a = 0;
    CUDA_CHECK(cudaSetDevice(0));
    timer.start(R[0].st);
    each([&](Rank& k) {
      std::vector<float> x, t;
      make_data(seed, z, step, k.dev, x, t);
      CUDA_CHECK(cudaMemcpyAsync(k.ch.data, x.data(), x.size() * 4, cudaMemcpyHostToDevice, k.st));
      CUDA_CHECK(cudaMemcpyAsync(k.ch.target, t.data(), t.size() * 4, cudaMemcpyHostToDevice, k.st));
      CUDA_CHECK(cudaMemsetAsync(k.gdense, 0, DS * 4, k.st));
      CUDA_CHECK(cudaMemsetAsync(k.gexperts, 0, size_t(Le) * ES * 4, k.st));
      route(k.ch, z, k.dense, k.send, k.st);
    });
    all_to_all([](Rank& k) { return k.send; }, [](Rank& k) { return k.eb.in; });  // dispatch
    each([&](Rank& k) { experts_forward(k.eb, k.experts, z, N, Le, k.st); });
    all_to_all([](Rank& k) { return k.eb.y; }, [](Rank& k) { return k.yback; });  // combine
    each([&](Rank& k) { loss_and_dispatch_grad(k.ch, z, k.yback, k.dsend, scale, k.st); });
    all_to_all([](Rank& k) { return k.dsend; }, [](Rank& k) { return k.eb.dy; });  // backward dispatch
    each([&](Rank& k) { experts_backward(k.eb, k.experts, k.gexperts, z, N, Le, k.st); });
    all_to_all([](Rank& k) { return k.eb.din; }, [](Rank& k) { return k.dxback; });  // backward combine
    each([&](Rank& k) { dense_backward(k.ch, z, k.dense, k.gdense, k.yback, k.dxback, k.st); });
    NCCL_CHECK(ncclGroupStart());
    for (auto& k : R) NCCL_CHECK(ncclAllReduce(k.gdense, k.gdense, DS, ncclFloat, ncclSum, k.comm, k.st));
    NCCL_CHECK(ncclGroupEnd());
    each([&](Rank& k) {
      tg::sgd_update<<<blocks_for(DS), kThreads, 0, k.st>>>(k.dense, k.gdense, DS, lr);
      tg::sgd_update<<<blocks_for(size_t(Le) * ES), kThreads, 0, k.st>>>(k.experts, k.gexperts, size_t(Le) * ES, lr);
    });
    CUDA_CHECK(cudaSetDevice(0));
    timer.stop(R[0].st);
    ms.push_back(timer.ms());
    double loss = 0;
    each([&](Rank& k) {
      std::vector<float> sq(size_t(z.T) * z.C);
      std::vector<int> load(size_t(z.E)), slot(size_t(z.T) * z.k);
      CUDA_CHECK(cudaMemcpy(sq.data(), k.ch.sq, sq.size() * 4, cudaMemcpyDeviceToHost));
      CUDA_CHECK(cudaMemcpy(load.data(), k.ch.load, load.size() * 4, cudaMemcpyDeviceToHost));
      CUDA_CHECK(cudaMemcpy(slot.data(), k.ch.slot, slot.size() * 4, cudaMemcpyDeviceToHost));
      double s = 0;
      for (float v : sq) s += v;
      loss += s;
      for (int e = 0; e < z.E; ++e) load_total[size_t(e)] += load[size_t(e)];
      for (int v : slot) dropped += v < 0;
      choices += long(slot.size());
    });
    losses.push_back(0.5 * loss / (double(N) * z.T * z.C));
  }

  std::printf("\nper-device allocations (bytes): experts %zu floats each, dense %zu floats replicated\n", ES, DS);
  tg::print_memory_header();
  for (auto& k : R) tg::print_memory_row(("dev" + std::to_string(k.dev)).c_str(), k.mem);
  std::printf("all-to-alls per step: %ld, each rank sending %zu bytes to each other rank; all-reduce of %zu bytes\n", a2a,
              slab * 4, DS * 4);
  std::printf("load over %d steps (tokens that chose each expert; balanced: %.1f):", steps,
              double(choices) / z.E);
  for (int e = 0; e < z.E; ++e) std::printf(" e%d %d", e, load_total[size_t(e)]);
  std::printf("\ndropped for capacity: %ld of %ld choices (%.1f%%)\n", dropped, choices,
              choices ? 100.0 * double(dropped) / double(choices) : 0.0);

  // The reference: one device, every expert, the N chunks as N sources.
  CUDA_CHECK(cudaSetDevice(0));
  tg::MemLedger rm;
  cudaStream_t rs;
  CUDA_CHECK(cudaStreamCreate(&rs));
  float* rdense = rm.alloc<float>(DS, tg::kParams);
  float* rexperts = rm.alloc<float>(size_t(z.E) * ES, tg::kParams);
  float* rgdense = rm.alloc<float>(DS, tg::kGrads);
  float* rgexperts = rm.alloc<float>(size_t(z.E) * ES, tg::kGrads);
  CUDA_CHECK(cudaMemcpy(rdense, h_dense.data(), DS * 4, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(rexperts, h_experts.data(), h_experts.size() * 4, cudaMemcpyHostToDevice));
  std::vector<Chunk> rch;
  for (int s = 0; s < N; ++s) rch.push_back(alloc_chunk(rm, z));
  // Expert rows as [source][E][cap]: in the distributed run expert e's rows are
  // [source][e - owner's first][cap] on its owner; per expert the same rows, same order.
  ExpertBufs reb = alloc_expert_bufs(rm, z, N, z.E);
  const size_t full = size_t(z.E) * cap * z.C;
  std::vector<double> ref_losses;
  for (int step = 1; step <= steps; ++step) {
    CUDA_CHECK(cudaMemsetAsync(rgdense, 0, DS * 4, rs));
    CUDA_CHECK(cudaMemsetAsync(rgexperts, 0, size_t(z.E) * ES * 4, rs));
    for (int s = 0; s < N; ++s) {
      std::vector<float> x, t;
      make_data(seed, z, step, s, x, t);
      CUDA_CHECK(cudaMemcpyAsync(rch[size_t(s)].data, x.data(), x.size() * 4, cudaMemcpyHostToDevice, rs));
      CUDA_CHECK(cudaMemcpyAsync(rch[size_t(s)].target, t.data(), t.size() * 4, cudaMemcpyHostToDevice, rs));
      route(rch[size_t(s)], z, rdense, reb.in + size_t(s) * full, rs);
    }
    experts_forward(reb, rexperts, z, N, z.E, rs);
    for (int s = 0; s < N; ++s)
      loss_and_dispatch_grad(rch[size_t(s)], z, reb.y + size_t(s) * full, reb.dy + size_t(s) * full, scale, rs);
    experts_backward(reb, rexperts, rgexperts, z, N, z.E, rs);
    for (int s = 0; s < N; ++s)
      dense_backward(rch[size_t(s)], z, rdense, rgdense, reb.y + size_t(s) * full, reb.din + size_t(s) * full, rs);
    tg::sgd_update<<<blocks_for(DS), kThreads, 0, rs>>>(rdense, rgdense, DS, lr);
    tg::sgd_update<<<blocks_for(size_t(z.E) * ES), kThreads, 0, rs>>>(rexperts, rgexperts, size_t(z.E) * ES, lr);
    CUDA_CHECK(cudaStreamSynchronize(rs));
    double loss = 0;
    for (int s = 0; s < N; ++s) {
      std::vector<float> sq(size_t(z.T) * z.C);
      CUDA_CHECK(cudaMemcpy(sq.data(), rch[size_t(s)].sq, sq.size() * 4, cudaMemcpyDeviceToHost));
      double a = 0;
      for (float v : sq) a += v;
      loss += a;
    }
    ref_losses.push_back(0.5 * loss / (double(N) * z.T * z.C));
  }

  std::printf("\n%5s %12s %12s %12s\n", "step", "loss", "ref loss", "ms/step");
  double loss_diff = 0;
  for (int s = 0; s < steps; ++s) {
    std::printf("%5d %12.6f %12.6f %12.4f\n", s + 1, losses[size_t(s)], ref_losses[size_t(s)], ms[size_t(s)]);
    loss_diff = std::fmax(loss_diff, std::fabs(losses[size_t(s)] - ref_losses[size_t(s)]));
  }
  std::vector<float> rexp(size_t(z.E) * ES), rden(DS);
  CUDA_CHECK(cudaMemcpy(rexp.data(), rexperts, rexp.size() * 4, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(rden.data(), rdense, DS * 4, cudaMemcpyDeviceToHost));
  double exp_diff = 0, dense_diff = 0;
  bool dense_equal = true;
  std::vector<float> d0;
  for (auto& k : R) {
    CUDA_CHECK(cudaSetDevice(k.dev));
    std::vector<float> e(size_t(Le) * ES), d(DS);
    CUDA_CHECK(cudaMemcpy(e.data(), k.experts, e.size() * 4, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(d.data(), k.dense, DS * 4, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < e.size(); ++i)
      exp_diff = std::fmax(exp_diff, std::fabs(double(e[i]) - rexp[size_t(k.dev) * Le * ES + i]));
    for (size_t i = 0; i < DS; ++i) dense_diff = std::fmax(dense_diff, std::fabs(double(d[i]) - rden[i]));
    if (k.dev == 0) d0 = d;
    else if (std::memcmp(d.data(), d0.data(), DS * 4)) dense_equal = false;
  }
  // Bounds: see the header. With 2 ranks the dense all-reduce is g0 + g1, the
  // reference's running sum 0 + g0 + g1: the same bits, so everything is exact.
  const double tol_exp = N <= 2 ? 0.0 : 1e-6, tol_dense = N <= 2 ? 0.0 : 1e-6, tol_loss = N <= 2 ? 0.0 : 1e-5;
  const bool ok = dense_equal && exp_diff <= tol_exp && dense_diff <= tol_dense && loss_diff <= tol_loss;
  std::printf("\ndense weights bit-identical on every rank: %s\n", dense_equal ? "yes" : "NO");
  std::printf("vs one device with all experts: max |loss diff| %.3e (bound %.1e), max |expert weight diff| %.3e "
              "(bound %.1e), max |dense weight diff| %.3e (bound %.1e)\n",
              loss_diff, tol_loss, exp_diff, tol_exp, dense_diff, tol_dense);
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  for (auto& k : R) NCCL_CHECK(ncclCommDestroy(k.comm));
  return ok ? 0 : 1;
}
