// tiny_gpt.cuh: the small GPT-style model every program of kernels/parallel/ trains,
// forward AND backward, in plain fp32 CUDA (one thread per output element; naive on
// purpose: the parallel schemes are the subject, not the kernels).
//
// The model (GPT-2's layout, as llm.c's train_gpt2.cu):
//   x0   = wte[token] + wpe[position]                          embedding block
//   per layer l (pre-LN):                                     layer blocks
//     a  = LN1(x);  qkv = a W_qkv^T  (no bias)
//     y  = softmax(causal(q k^T / sqrt(hs))) v, per head
//     x  = x + y W_attproj^T  (no bias)
//     m  = LN2(x);  h = GELU(m W_fc^T + b_fc)
//     x  = x + h W_fcproj^T + b_fcproj
//   logits = LNf(x) W_lm^T  (untied: the embedding lives on the first pipeline stage
//            and the head on the last, so tying them would need an extra all-reduce)
//   loss   = mean cross-entropy of the next token                head block
// The attention projections have no bias: a bias on k is invisible to softmax (it adds
// q.b to every score of a row), so its gradient is 0 in exact arithmetic and rounding
// noise in fp32, which AdamW would turn into steps of size ~lr with a random sign; the
// self-checks would then compare noise.
//
// Parameters live in ONE flat fp32 buffer per device, in blocks: block 0 = embedding
// (wte, wpe), blocks 1..L = layers, block L+1 = head (lnf, lm). A ParamTable lists the
// tensors of the blocks a device holds (a pipeline stage holds some blocks), their
// shapes for a tensor-parallel degree tp (Megatron: W_qkv and W_fc split by rows,
// W_attproj and W_fcproj by columns, the rest replicated), and pads every block to a
// multiple of `pad` floats (ZeRO shards each block evenly over its ranks). Gradients
// and optimizer state use the same layout, so a range of the flat buffer is a bucket
// (DDP) or a shard (ZeRO). Backward runs the blocks from last to first and, inside a
// layer, finishes its tensors from last to first: the gradients are complete from the
// end of the buffer down, which is what DDP's bucket hooks watch.
//
// Initialisation is an integer hash of (seed, tensor, element of the FULL tensor), so
// every scheme starts from the same weights however they are split; the data is a
// deterministic synthetic sequence (token t+1 = token t + stride, mod V, the stride a
// hash of the sequence number), learnable by attention, so the loss falls.
//
// Plain CUDA + NCCL: builds with nvcc 13 and real NCCL, and with `simt exec`.
#pragma once
#include <cuda_runtime.h>
#include <nccl.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CUDA_CHECK(call)                                                                              \
  do {                                                                                                \
    cudaError_t err_ = (call);                                                                        \
    if (err_ != cudaSuccess) {                                                                        \
      std::fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorString(err_), __FILE__, __LINE__, \
                   #call);                                                                            \
      std::exit(3);                                                                                   \
    }                                                                                                 \
  } while (0)
#define NCCL_CHECK(call)                                                                              \
  do {                                                                                                \
    ncclResult_t res_ = (call);                                                                       \
    if (res_ != ncclSuccess) {                                                                        \
      std::fprintf(stderr, "NCCL error %s at %s:%d: %s\n", ncclGetErrorString(res_), __FILE__, __LINE__, \
                   #call);                                                                            \
      std::exit(3);                                                                                   \
    }                                                                                                 \
  } while (0)

namespace tg {

constexpr int kThreads = 256;
inline int blocks_for(size_t n) { return int((n + kThreads - 1) / kThreads); }

// ---------------------------------------------------------------------------------
// Configuration and flags
// ---------------------------------------------------------------------------------
struct Config {
  int V = 64;    // vocabulary
  int T = 32;    // sequence length
  int C = 64;    // model width
  int NH = 4;    // heads
  int L = 2;     // layers
  int B = 2;     // micro-batch (sequences) per rank
  int steps = 3;
  float lr = 1e-3f;   // AdamW's; plain SGD's default is 0.1
  bool lr_set = false;
  bool sgd = false;  // default AdamW
  float wd = 0.0f;
  unsigned seed = 1234;
  int hs() const { return C / NH; }
};

inline bool arg_is(const char* a, const char* name) { return std::strcmp(a, name) == 0; }
inline const char* arg_value(int argc, char** argv, int& i) {
  if (i + 1 >= argc) {
    std::fprintf(stderr, "%s needs a value\n", argv[i]);
    std::exit(2);
  }
  return argv[++i];
}
// Reads one model/training flag at argv[i]; true when it was one (i advanced past its value).
inline bool parse_model_flag(Config& c, int argc, char** argv, int& i) {
  const char* a = argv[i];
  if (arg_is(a, "--layers")) c.L = std::atoi(arg_value(argc, argv, i));
  else if (arg_is(a, "--d")) c.C = std::atoi(arg_value(argc, argv, i));
  else if (arg_is(a, "--heads")) c.NH = std::atoi(arg_value(argc, argv, i));
  else if (arg_is(a, "--seq")) c.T = std::atoi(arg_value(argc, argv, i));
  else if (arg_is(a, "--batch")) c.B = std::atoi(arg_value(argc, argv, i));
  else if (arg_is(a, "--vocab")) c.V = std::atoi(arg_value(argc, argv, i));
  else if (arg_is(a, "--steps")) c.steps = std::atoi(arg_value(argc, argv, i));
  else if (arg_is(a, "--lr")) { c.lr = float(std::atof(arg_value(argc, argv, i))); c.lr_set = true; }
  else if (arg_is(a, "--wd")) c.wd = float(std::atof(arg_value(argc, argv, i)));
  else if (arg_is(a, "--seed")) c.seed = unsigned(std::strtoul(arg_value(argc, argv, i), nullptr, 10));
  else if (arg_is(a, "--sgd")) c.sgd = true;
  else if (arg_is(a, "--issue-size")) {  // issue 26's intended size: works, but slow on the simulator
    c.L = 4; c.C = 256; c.NH = 4; c.T = 128; c.B = 4; c.V = 256;
  } else return false;
  return true;
}
inline const char* model_flags_help() {
  return "  --layers L (2) --d C (64) --heads H (4) --seq T (32) --batch B (2, per rank) --vocab V (64)\n"
         "  --steps K (3) --lr (AdamW 1e-3, SGD 0.1) --wd (0) --sgd (default AdamW) --seed S (1234)\n"
         "  --issue-size   issue 26's size: 4 layers, d 256, 4 heads, seq 128, batch 4, vocab 256 (slow)\n";
}
inline void validate(Config& c) {
  if (c.sgd && !c.lr_set) c.lr = 0.1f;
  if (c.L < 1 || c.C < 1 || c.NH < 1 || c.C % c.NH || c.T < 1 || c.B < 1 || c.V < 2 || c.steps < 1) {
    std::fprintf(stderr, "bad model size (need C %% heads == 0, all sizes >= 1)\n");
    std::exit(2);
  }
}
inline void print_config(const Config& c) {
  std::printf("model: %d layers, d %d, %d heads (hs %d), seq %d, vocab %d, batch %d per rank, %s lr %g, %d steps\n",
              c.L, c.C, c.NH, c.hs(), c.T, c.V, c.B, c.sgd ? "SGD" : "AdamW", c.lr, c.steps);
}

// ---------------------------------------------------------------------------------
// Deterministic numbers: an integer hash (splitmix/murmur finaliser), no curand
// ---------------------------------------------------------------------------------
inline uint32_t hash32(uint32_t x) {
  x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15; x *= 0x846ca68bU; x ^= x >> 16;
  return x;
}
inline uint32_t hash3(uint32_t a, uint32_t b, uint32_t c) { return hash32(a ^ hash32(b ^ hash32(c))); }
// uniform in [-1, 1)
inline float hash_uniform(uint32_t a, uint32_t b, uint32_t c) {
  return float(hash3(a, b, c) >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

// Synthetic data: sequence `g` (global index over the whole run), T+1 tokens; the
// inputs are tokens [0, T), the targets [1, T+1).
inline void make_batch(const Config& c, long first_seq, int nseq, std::vector<int>& inputs, std::vector<int>& targets) {
  inputs.resize(size_t(nseq) * c.T);
  targets.resize(size_t(nseq) * c.T);
  for (int s = 0; s < nseq; ++s) {
    const uint32_t g = uint32_t(first_seq + s);
    int tok = int(hash3(c.seed, 0xda7a, g) % uint32_t(c.V));
    const int stride = 1 + int(hash3(c.seed, 0x57e9, g) % 4u);
    for (int t = 0; t <= c.T; ++t) {
      if (t < c.T) inputs[size_t(s) * c.T + t] = tok;
      if (t > 0) targets[size_t(s) * c.T + t - 1] = tok;
      tok = (tok + stride) % c.V;
    }
  }
}

// ---------------------------------------------------------------------------------
// The parameter table
// ---------------------------------------------------------------------------------
enum class Split { None, QkvRows, Rows, Cols };  // how tensor parallelism cuts a tensor
enum class Init { Weight, Ones, Zeros };

struct Tensor {
  std::string name;
  int block;        // 0 embedding, 1..L layers, L+1 head
  int uid;          // index in the full model's list of tensors (init hash)
  Split split;
  Init init;
  float scale;      // std-like scale of Weight init
  int rows, cols;   // full shape
  int lrows, lcols; // local shape on a tensor-parallel rank
  size_t offset;    // in floats, in this device's flat buffer
  size_t size() const { return size_t(lrows) * lcols; }
  size_t full_size() const { return size_t(rows) * cols; }
};
struct BlockRange {
  int block;
  size_t offset, size;  // size padded to a multiple of pad
  int first_tensor, ntensors;
};

struct ParamTable {
  std::vector<Tensor> tensors;
  std::vector<BlockRange> blocks;  // in increasing block id
  size_t total = 0;                // floats, padded
  int tp = 1, tp_rank = 0, pad = 1;
  int L = 0;
  const BlockRange* find_block(int b) const {
    for (auto& r : blocks)
      if (r.block == b) return &r;
    return nullptr;
  }
  const Tensor& tensor(int b, int k) const { return tensors[size_t(find_block(b)->first_tensor + k)]; }
  size_t unpadded() const {
    size_t n = 0;
    for (auto& t : tensors) n += t.size();
    return n;
  }
};

// The tensors of block b, in layout (= forward) order.
inline void block_tensors(const Config& c, int tp, int b, std::vector<Tensor>& out) {
  const int C = c.C, V = c.V, T = c.T, H = 4 * C;
  const float wstd = 0.02f, pstd = 0.02f / std::sqrt(2.0f * c.L);
  auto add = [&](const char* name, Split s, Init init, float scale, int rows, int cols) {
    Tensor t;
    t.name = name; t.block = b; t.split = s; t.init = init; t.scale = scale; t.rows = rows; t.cols = cols;
    t.lrows = rows; t.lcols = cols;
    if (s == Split::QkvRows || s == Split::Rows) t.lrows = rows / tp;
    if (s == Split::Cols) t.lcols = cols / tp;
    t.uid = b * 16 + int(out.size());
    t.offset = 0;
    out.push_back(t);
  };
  if (b == 0) {
    add("wte", Split::None, Init::Weight, wstd, V, C);
    add("wpe", Split::None, Init::Weight, wstd, T, C);
  } else if (b <= c.L) {
    add("ln1w", Split::None, Init::Ones, 0, 1, C);
    add("ln1b", Split::None, Init::Zeros, 0, 1, C);
    add("qkvw", Split::QkvRows, Init::Weight, wstd, 3 * C, C);
    add("attprojw", Split::Cols, Init::Weight, pstd, C, C);
    add("ln2w", Split::None, Init::Ones, 0, 1, C);
    add("ln2b", Split::None, Init::Zeros, 0, 1, C);
    add("fcw", Split::Rows, Init::Weight, wstd, H, C);
    add("fcb", Split::Rows, Init::Zeros, 0, H, 1);
    add("fcprojw", Split::Cols, Init::Weight, pstd, C, H);
    add("fcprojb", Split::None, Init::Zeros, 0, 1, C);
  } else {
    add("lnfw", Split::None, Init::Ones, 0, 1, C);
    add("lnfb", Split::None, Init::Zeros, 0, 1, C);
    add("lmw", Split::None, Init::Weight, wstd, V, C);
  }
}

// The table of the blocks [first, last] (default: the whole model), tensor-parallel
// degree tp (this device is rank tp_rank), every block padded to a multiple of pad.
inline ParamTable make_table(const Config& c, int first = 0, int last = -1, int tp = 1, int tp_rank = 0, int pad = 1) {
  if (last < 0) last = c.L + 1;
  ParamTable t;
  t.tp = tp; t.tp_rank = tp_rank; t.pad = pad; t.L = c.L;
  size_t off = 0;
  for (int b = first; b <= last; ++b) {
    std::vector<Tensor> ts;
    block_tensors(c, tp, b, ts);
    BlockRange r;
    r.block = b; r.offset = off; r.first_tensor = int(t.tensors.size()); r.ntensors = int(ts.size());
    for (auto& x : ts) {
      x.offset = off;
      off += x.size();
      t.tensors.push_back(x);
    }
    off = (off + size_t(pad) - 1) / size_t(pad) * size_t(pad);
    r.size = off - r.offset;
    t.blocks.push_back(r);
  }
  t.total = off;
  return t;
}

// Local element k of tensor t on tensor-parallel rank tp_rank -> element of the full tensor.
inline size_t full_index(const Tensor& t, int tp, int tp_rank, size_t k) {
  const size_t lr = k / size_t(t.lcols), lc = k % size_t(t.lcols);
  switch (t.split) {
    case Split::None: return k;
    case Split::Rows: return (size_t(tp_rank) * t.lrows + lr) * t.cols + lc;
    case Split::Cols: return lr * t.cols + size_t(tp_rank) * t.lcols + lc;
    case Split::QkvRows: {
      const size_t part_rows = size_t(t.rows) / 3, local_part = part_rows / size_t(tp);
      const size_t part = lr / local_part, j = lr % local_part;
      return (part * part_rows + size_t(tp_rank) * local_part + j) * t.cols + lc;
    }
  }
  return k;
}
inline float init_value(const Config& c, const Tensor& t, size_t full_k) {
  switch (t.init) {
    case Init::Ones: return 1.0f;
    case Init::Zeros: return 0.0f;
    case Init::Weight: return t.scale * 1.7320508f * hash_uniform(c.seed, uint32_t(t.uid), uint32_t(full_k));
  }
  return 0.0f;
}
// Host copy of this device's parameters at initialisation (padding = 0).
inline std::vector<float> init_params(const Config& c, const ParamTable& tab) {
  std::vector<float> h(tab.total, 0.0f);
  for (auto& t : tab.tensors)
    for (size_t k = 0; k < t.size(); ++k) h[t.offset + k] = init_value(c, t, full_index(t, tab.tp, tab.tp_rank, k));
  return h;
}

// Views of the flat buffer. `rebase`: the buffer at `base` holds the block from this
// offset of the table on (ZeRO keeps one block of gathered parameters or of gradients).
struct LayerW {
  float *ln1w, *ln1b, *qkvw, *attprojw, *ln2w, *ln2b, *fcw, *fcb, *fcprojw, *fcprojb;
};
struct EmbedW { float *wte, *wpe; };
struct HeadW { float *lnfw, *lnfb, *lmw; };
inline LayerW layer_view(const ParamTable& tab, float* base, int layer /*1..L*/, size_t rebase = 0) {
  const BlockRange* r = tab.find_block(layer);
  float* p[10];
  for (int k = 0; k < 10; ++k) p[k] = base + (tab.tensors[size_t(r->first_tensor + k)].offset - rebase);
  return LayerW{p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9]};
}
inline EmbedW embed_view(const ParamTable& tab, float* base, size_t rebase = 0) {
  const BlockRange* r = tab.find_block(0);
  return EmbedW{base + (tab.tensors[size_t(r->first_tensor)].offset - rebase),
                base + (tab.tensors[size_t(r->first_tensor + 1)].offset - rebase)};
}
inline HeadW head_view(const ParamTable& tab, float* base, size_t rebase = 0) {
  const BlockRange* r = tab.find_block(tab.L + 1);
  const Tensor* t = &tab.tensors[size_t(r->first_tensor)];
  return HeadW{base + (t[0].offset - rebase), base + (t[1].offset - rebase), base + (t[2].offset - rebase)};
}

// ---------------------------------------------------------------------------------
// Kernels: fp32, one thread per output element (or per row where a row is the unit)
// ---------------------------------------------------------------------------------
// out[n, o] = sum_i inp[n, i] W[o, i] (+ bias[o])             W is [OUT, IN], as llm.c
__global__ void matmul_fwd(float* out, const float* inp, const float* W, const float* bias, int N, int IN, int OUT) {
  const size_t idx = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= size_t(N) * OUT) return;
  const int n = int(idx / OUT), o = int(idx % OUT);
  float s = 0.0f;
  for (int i = 0; i < IN; ++i) s += inp[size_t(n) * IN + i] * W[size_t(o) * IN + i];
  out[idx] = bias ? s + bias[o] : s;
}
// dinp[n, i] (+)= sum_o dout[n, o] W[o, i]
__global__ void matmul_bwd_inp(float* dinp, const float* dout, const float* W, int N, int IN, int OUT, int accumulate) {
  const size_t idx = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= size_t(N) * IN) return;
  const int n = int(idx / IN), i = int(idx % IN);
  float s = 0.0f;
  for (int o = 0; o < OUT; ++o) s += dout[size_t(n) * OUT + o] * W[size_t(o) * IN + i];
  dinp[idx] = accumulate ? dinp[idx] + s : s;
}
// dW[o, i] += sum_n dout[n, o] inp[n, i]
__global__ void matmul_bwd_w(float* dW, const float* dout, const float* inp, int N, int IN, int OUT) {
  const size_t idx = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= size_t(OUT) * IN) return;
  const int o = int(idx / IN), i = int(idx % IN);
  float s = 0.0f;
  for (int n = 0; n < N; ++n) s += dout[size_t(n) * OUT + o] * inp[size_t(n) * IN + i];
  dW[idx] += s;
}
// db[o] += sum_n dout[n, o]
__global__ void bias_bwd(float* db, const float* dout, int N, int OUT) {
  const int o = blockIdx.x * blockDim.x + threadIdx.x;
  if (o >= OUT) return;
  float s = 0.0f;
  for (int n = 0; n < N; ++n) s += dout[size_t(n) * OUT + o];
  db[o] += s;
}

__global__ void layernorm_fwd(float* out, float* mean, float* rstd, const float* inp, const float* w, const float* b,
                              int N, int C) {
  const int n = blockIdx.x * blockDim.x + threadIdx.x;
  if (n >= N) return;
  const float* x = inp + size_t(n) * C;
  float m = 0.0f;
  for (int i = 0; i < C; ++i) m += x[i];
  m = m / C;
  float v = 0.0f;
  for (int i = 0; i < C; ++i) v += (x[i] - m) * (x[i] - m);
  v = v / C;
  const float s = 1.0f / sqrtf(v + 1e-5f);
  for (int i = 0; i < C; ++i) out[size_t(n) * C + i] = (x[i] - m) * s * w[i] + b[i];
  mean[n] = m;
  rstd[n] = s;
}
// dinp[n, :] += LN backward (one thread per row)
__global__ void layernorm_bwd_inp(float* dinp, const float* dout, const float* inp, const float* w, const float* mean,
                                  const float* rstd, int N, int C) {
  const int n = blockIdx.x * blockDim.x + threadIdx.x;
  if (n >= N) return;
  const float* x = inp + size_t(n) * C;
  const float* dy = dout + size_t(n) * C;
  const float m = mean[n], s = rstd[n];
  float a = 0.0f, b = 0.0f;
  for (int i = 0; i < C; ++i) {
    const float xhat = (x[i] - m) * s;
    a += dy[i] * w[i];
    b += dy[i] * w[i] * xhat;
  }
  a = a / C;
  b = b / C;
  for (int i = 0; i < C; ++i) {
    const float xhat = (x[i] - m) * s;
    dinp[size_t(n) * C + i] += (dy[i] * w[i] - a - xhat * b) * s;
  }
}
// dw[i] += sum_n dout xhat, db[i] += sum_n dout (one thread per column)
__global__ void layernorm_bwd_wb(float* dw, float* db, const float* dout, const float* inp, const float* mean,
                                 const float* rstd, int N, int C) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= C) return;
  float sw = 0.0f, sb = 0.0f;
  for (int n = 0; n < N; ++n) {
    const float dy = dout[size_t(n) * C + i];
    sw += dy * ((inp[size_t(n) * C + i] - mean[n]) * rstd[n]);
    sb += dy;
  }
  dw[i] += sw;
  db[i] += sb;
}

// Attention. qkv is [B, T, 3*Cl]: q in [0, Cl), k in [Cl, 2Cl), v in [2Cl, 3Cl); head h
// uses channels [h*hs, (h+1)*hs) of each. att and preatt are [B, NH, T, T].
__global__ void attn_scores(float* preatt, const float* qkv, int B, int T, int NH, int hs) {
  const size_t idx = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= size_t(B) * NH * T * T) return;
  const int s = int(idx % T), t = int(idx / T % T), h = int(idx / T / T % NH), b = int(idx / T / T / NH);
  const int Cl = NH * hs;
  if (s > t) { preatt[idx] = 0.0f; return; }
  const float* q = qkv + (size_t(b) * T + t) * 3 * Cl + h * hs;
  const float* k = qkv + (size_t(b) * T + s) * 3 * Cl + Cl + h * hs;
  float d = 0.0f;
  for (int i = 0; i < hs; ++i) d += q[i] * k[i];
  preatt[idx] = d * (1.0f / sqrtf(float(hs)));
}
__global__ void attn_softmax(float* att, const float* preatt, int rows, int T) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const int t = r % T;
  const float* x = preatt + size_t(r) * T;
  float m = -INFINITY;
  for (int s = 0; s <= t; ++s) m = fmaxf(m, x[s]);
  float sum = 0.0f;
  for (int s = 0; s <= t; ++s) sum += expf(x[s] - m);
  for (int s = 0; s < T; ++s) att[size_t(r) * T + s] = s <= t ? expf(x[s] - m) / sum : 0.0f;
}
__global__ void attn_av(float* out, const float* att, const float* qkv, int B, int T, int NH, int hs) {
  const size_t idx = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const int Cl = NH * hs;
  if (idx >= size_t(B) * T * Cl) return;
  const int c = int(idx % Cl), t = int(idx / Cl % T), b = int(idx / Cl / T);
  const int h = c / hs;
  const float* a = att + ((size_t(b) * NH + h) * T + t) * T;
  float s = 0.0f;
  for (int j = 0; j <= t; ++j) s += a[j] * qkv[(size_t(b) * T + j) * 3 * Cl + 2 * Cl + c];
  out[idx] = s;
}
// datt[b,h,t,s] = sum_d dy[b,t,h,d] v[b,s,h,d]  (s <= t)
__global__ void attn_bwd_datt(float* datt, const float* dy, const float* qkv, int B, int T, int NH, int hs) {
  const size_t idx = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= size_t(B) * NH * T * T) return;
  const int s = int(idx % T), t = int(idx / T % T), h = int(idx / T / T % NH), b = int(idx / T / T / NH);
  const int Cl = NH * hs;
  if (s > t) { datt[idx] = 0.0f; return; }
  float d = 0.0f;
  for (int i = 0; i < hs; ++i)
    d += dy[(size_t(b) * T + t) * Cl + h * hs + i] * qkv[(size_t(b) * T + s) * 3 * Cl + 2 * Cl + h * hs + i];
  datt[idx] = d;
}
// dv[b,s,h,d] = sum_{t >= s} att[b,h,t,s] dy[b,t,h,d]
__global__ void attn_bwd_dv(float* dqkv, const float* att, const float* dy, int B, int T, int NH, int hs) {
  const size_t idx = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const int Cl = NH * hs;
  if (idx >= size_t(B) * T * Cl) return;
  const int c = int(idx % Cl), s = int(idx / Cl % T), b = int(idx / Cl / T);
  const int h = c / hs;
  float d = 0.0f;
  for (int t = s; t < T; ++t) d += att[((size_t(b) * NH + h) * T + t) * T + s] * dy[(size_t(b) * T + t) * Cl + c];
  dqkv[(size_t(b) * T + s) * 3 * Cl + 2 * Cl + c] = d;
}
// dpreatt = att * (datt - sum_s att datt), one thread per row
__global__ void attn_bwd_softmax(float* dpreatt, const float* att, const float* datt, int rows, int T) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const int t = r % T;
  const float* a = att + size_t(r) * T;
  const float* d = datt + size_t(r) * T;
  float dot = 0.0f;
  for (int s = 0; s <= t; ++s) dot += a[s] * d[s];
  for (int s = 0; s < T; ++s) dpreatt[size_t(r) * T + s] = s <= t ? a[s] * (d[s] - dot) : 0.0f;
}
// dq[b,t,h,:] = scale sum_{s<=t} dpreatt[t,s] k[s];  dk[b,s,h,:] = scale sum_{t>=s} dpreatt[t,s] q[t]
__global__ void attn_bwd_dqk(float* dqkv, const float* dpreatt, const float* qkv, int B, int T, int NH, int hs) {
  const size_t idx = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const int Cl = NH * hs;
  if (idx >= size_t(B) * T * 2 * Cl) return;
  const int c2 = int(idx % (2 * Cl)), t = int(idx / (2 * Cl) % T), b = int(idx / (2 * Cl) / T);
  const bool is_k = c2 >= Cl;
  const int c = is_k ? c2 - Cl : c2, h = c / hs;
  const float scale = 1.0f / sqrtf(float(hs));
  const float* P = dpreatt + (size_t(b) * NH + h) * T * T;
  float d = 0.0f;
  if (!is_k) {
    for (int s = 0; s <= t; ++s) d += P[size_t(t) * T + s] * qkv[(size_t(b) * T + s) * 3 * Cl + Cl + c];
  } else {
    for (int u = t; u < T; ++u) d += P[size_t(u) * T + t] * qkv[(size_t(b) * T + u) * 3 * Cl + c];
  }
  dqkv[(size_t(b) * T + t) * 3 * Cl + c2] = d * scale;
}

__device__ inline float gelu_f(float x) {
  const float k = 0.7978845608f;  // sqrt(2/pi)
  return 0.5f * x * (1.0f + tanhf(k * (x + 0.044715f * x * x * x)));
}
__global__ void gelu_fwd(float* out, const float* inp, size_t n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = gelu_f(inp[i]);
}
// d (in place: dinp may alias dout) = dout * gelu'(inp)
__global__ void gelu_bwd(float* dinp, const float* inp, const float* dout, size_t n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float k = 0.7978845608f, x = inp[i];
  const float cube = 0.044715f * x * x * x;
  const float th = tanhf(k * (x + cube));
  const float sech2 = 1.0f - th * th;
  const float g = 0.5f * (1.0f + th) + x * 0.5f * sech2 * k * (1.0f + 3.0f * 0.044715f * x * x);
  dinp[i] = g * dout[i];
}
// out = a + b (+ bias[c])
__global__ void residual_fwd(float* out, const float* a, const float* b, const float* bias, int N, int C) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= size_t(N) * C) return;
  const float s = a[i] + b[i];
  out[i] = bias ? s + bias[i % C] : s;
}
__global__ void embed_fwd(float* out, const int* tokens, const float* wte, const float* wpe, int B, int T, int C) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= size_t(B) * T * C) return;
  const int c = int(i % C), n = int(i / C), t = n % T;
  out[i] = wte[size_t(tokens[n]) * C + c] + wpe[size_t(t) * C + c];
}
// dwte[v, c] += sum over rows n with token v of dout[n, c] (a thread per (v, c): no atomics, fixed order)
__global__ void embed_bwd_wte(float* dwte, const float* dout, const int* tokens, int N, int V, int C) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= size_t(V) * C) return;
  const int v = int(i / C), c = int(i % C);
  float s = 0.0f;
  for (int n = 0; n < N; ++n)
    if (tokens[n] == v) s += dout[size_t(n) * C + c];
  dwte[i] += s;
}
__global__ void embed_bwd_wpe(float* dwpe, const float* dout, int B, int T, int C) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= size_t(T) * C) return;
  float s = 0.0f;
  for (int b = 0; b < B; ++b) s += dout[size_t(b) * T * C + i];
  dwpe[i] += s;
}
// probs = softmax(logits) in place, losses[n] = -log probs[target] (a thread per row)
__global__ void crossentropy_fwd(float* probs, float* losses, const int* targets, int N, int V) {
  const int n = blockIdx.x * blockDim.x + threadIdx.x;
  if (n >= N) return;
  float* x = probs + size_t(n) * V;
  float m = -INFINITY;
  for (int v = 0; v < V; ++v) m = fmaxf(m, x[v]);
  float sum = 0.0f;
  for (int v = 0; v < V; ++v) sum += expf(x[v] - m);
  for (int v = 0; v < V; ++v) x[v] = expf(x[v] - m) / sum;
  losses[n] = -logf(x[targets[n]]);
}
// dlogits = (probs - onehot(target)) * scale   (scale = 1 / tokens the loss averages over)
__global__ void crossentropy_bwd(float* dlogits, const float* probs, const int* targets, int N, int V, float scale) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= size_t(N) * V) return;
  const int n = int(i / V), v = int(i % V);
  dlogits[i] = (probs[i] - (v == targets[n] ? 1.0f : 0.0f)) * scale;
}
__global__ void adamw_update(float* p, const float* g, float* m, float* v, size_t n, float lr, float b1, float b2,
                             float eps, float wd, float bc1, float bc2) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float gi = g[i];
  const float mi = b1 * m[i] + (1.0f - b1) * gi;
  const float vi = b2 * v[i] + (1.0f - b2) * gi * gi;
  m[i] = mi;
  v[i] = vi;
  const float mhat = mi / bc1, vhat = vi / bc2;
  p[i] -= lr * (mhat / (sqrtf(vhat) + eps) + wd * p[i]);
}
__global__ void sgd_update(float* p, const float* g, size_t n, float lr) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) p[i] -= lr * g[i];
}
__global__ void scale_inplace(float* x, size_t n, float s) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}

// ---------------------------------------------------------------------------------
// Device memory, counted by kind
// ---------------------------------------------------------------------------------
enum MemKind { kParams, kGrads, kOptim, kActs, kWork, kNumKinds };
struct MemLedger {
  size_t bytes[kNumKinds] = {0, 0, 0, 0, 0};
  std::vector<void*> ptrs;
  template <class T>
  T* alloc(size_t count, MemKind kind) {
    void* p = nullptr;
    const size_t nbytes = count * sizeof(T) > 0 ? count * sizeof(T) : 4;
    CUDA_CHECK(cudaMalloc(&p, nbytes));
    CUDA_CHECK(cudaMemset(p, 0, nbytes));
    bytes[kind] += nbytes;
    ptrs.push_back(p);
    return static_cast<T*>(p);
  }
  void free_all() {
    for (void* p : ptrs) cudaFree(p);
    ptrs.clear();
  }
};
inline void print_memory_header() {
  std::printf("%-6s %12s %12s %12s %12s %12s\n", "device", "params B", "grads B", "optim B", "acts B", "work B");
}
inline void print_memory_row(const char* label, const MemLedger& m) {
  std::printf("%-6s %12zu %12zu %12zu %12zu %12zu\n", label, m.bytes[kParams], m.bytes[kGrads], m.bytes[kOptim],
              m.bytes[kActs], m.bytes[kWork]);
}

// ---------------------------------------------------------------------------------
// Activations of one micro-batch, per block; scratch for backward
// ---------------------------------------------------------------------------------
struct Dims {
  int B, T, C, NH, hs, H, V;  // NH and H local to a tensor-parallel rank
  int N() const { return B * T; }
  int Cl() const { return NH * hs; }
};
inline Dims dims_for(const Config& c, int B, int tp = 1) {
  return Dims{B, c.T, c.C, c.NH / tp, c.hs(), 4 * c.C / tp, c.V};
}
struct LayerA {
  const float* in;  // the layer's input (the previous block's output), not owned
  float *ln1, *ln1_mean, *ln1_rstd, *qkv, *preatt, *att, *atty, *attproj, *res2, *ln2, *ln2_mean, *ln2_rstd, *fch,
      *fchg, *fcproj, *out;
};
struct HeadA {
  const float* in;
  float *lnf, *lnf_mean, *lnf_rstd, *probs, *losses;
};
inline LayerA alloc_layer_acts(MemLedger& m, const Dims& d) {
  const size_t N = size_t(d.N()), C = size_t(d.C), Cl = size_t(d.Cl()), H = size_t(d.H);
  const size_t att = size_t(d.B) * d.NH * d.T * d.T;
  LayerA a;
  a.in = nullptr;
  a.ln1 = m.alloc<float>(N * C, kActs); a.ln1_mean = m.alloc<float>(N, kActs); a.ln1_rstd = m.alloc<float>(N, kActs);
  a.qkv = m.alloc<float>(N * 3 * Cl, kActs); a.preatt = m.alloc<float>(att, kActs); a.att = m.alloc<float>(att, kActs);
  a.atty = m.alloc<float>(N * Cl, kActs); a.attproj = m.alloc<float>(N * C, kActs); a.res2 = m.alloc<float>(N * C, kActs);
  a.ln2 = m.alloc<float>(N * C, kActs); a.ln2_mean = m.alloc<float>(N, kActs); a.ln2_rstd = m.alloc<float>(N, kActs);
  a.fch = m.alloc<float>(N * H, kActs); a.fchg = m.alloc<float>(N * H, kActs); a.fcproj = m.alloc<float>(N * C, kActs);
  a.out = m.alloc<float>(N * C, kActs);
  return a;
}
inline HeadA alloc_head_acts(MemLedger& m, const Dims& d) {
  const size_t N = size_t(d.N());
  HeadA a;
  a.in = nullptr;
  a.lnf = m.alloc<float>(N * d.C, kActs); a.lnf_mean = m.alloc<float>(N, kActs); a.lnf_rstd = m.alloc<float>(N, kActs);
  a.probs = m.alloc<float>(N * d.V, kActs); a.losses = m.alloc<float>(N, kActs);
  return a;
}
// Backward scratch: dres is the gradient of the residual stream flowing down the blocks.
struct Scratch {
  float *dres, *dln, *dqkv, *datt, *dpreatt, *datty, *dfch, *dlogits;
};
inline Scratch alloc_scratch(MemLedger& m, const Dims& d) {
  const size_t N = size_t(d.N()), att = size_t(d.B) * d.NH * d.T * d.T;
  Scratch s;
  s.dres = m.alloc<float>(N * d.C, kWork); s.dln = m.alloc<float>(N * d.C, kWork);
  s.dqkv = m.alloc<float>(N * 3 * d.Cl(), kWork); s.datt = m.alloc<float>(att, kWork);
  s.dpreatt = m.alloc<float>(att, kWork); s.datty = m.alloc<float>(N * d.Cl(), kWork);
  s.dfch = m.alloc<float>(N * d.H, kWork); s.dlogits = m.alloc<float>(N * d.V, kWork);
  return s;
}

// ---------------------------------------------------------------------------------
// Forward and backward, in the pieces the schemes interleave with communication.
// A tensor-parallel program all-reduces between the pieces (marked "TP:"); the
// others call them back to back.
// ---------------------------------------------------------------------------------
inline void embed_forward(const EmbedW& w, float* x0, const int* tokens, const Dims& d, cudaStream_t st) {
  embed_fwd<<<blocks_for(size_t(d.N()) * d.C), kThreads, 0, st>>>(x0, tokens, w.wte, w.wpe, d.B, d.T, d.C);
}
// LN1 -> qkv -> attention -> partial attproj (TP: all-reduce a.attproj next)
inline void layer_forward_attn(const LayerW& w, LayerA& a, const float* in, const Dims& d, cudaStream_t st) {
  const int N = d.N(), C = d.C, Cl = d.Cl();
  a.in = in;
  layernorm_fwd<<<blocks_for(N), kThreads, 0, st>>>(a.ln1, a.ln1_mean, a.ln1_rstd, in, w.ln1w, w.ln1b, N, C);
  matmul_fwd<<<blocks_for(size_t(N) * 3 * Cl), kThreads, 0, st>>>(a.qkv, a.ln1, w.qkvw, nullptr, N, C, 3 * Cl);
  const size_t att = size_t(d.B) * d.NH * d.T * d.T;
  attn_scores<<<blocks_for(att), kThreads, 0, st>>>(a.preatt, a.qkv, d.B, d.T, d.NH, d.hs);
  attn_softmax<<<blocks_for(size_t(d.B) * d.NH * d.T), kThreads, 0, st>>>(a.att, a.preatt, d.B * d.NH * d.T, d.T);
  attn_av<<<blocks_for(size_t(N) * Cl), kThreads, 0, st>>>(a.atty, a.att, a.qkv, d.B, d.T, d.NH, d.hs);
  matmul_fwd<<<blocks_for(size_t(N) * C), kThreads, 0, st>>>(a.attproj, a.atty, w.attprojw, nullptr, N, Cl, C);
}
// residual -> LN2 -> fc -> GELU -> partial fcproj (TP: all-reduce a.fcproj next)
inline void layer_forward_mlp(const LayerW& w, LayerA& a, const Dims& d, cudaStream_t st) {
  const int N = d.N(), C = d.C, H = d.H;
  residual_fwd<<<blocks_for(size_t(N) * C), kThreads, 0, st>>>(a.res2, a.in, a.attproj, nullptr, N, C);
  layernorm_fwd<<<blocks_for(N), kThreads, 0, st>>>(a.ln2, a.ln2_mean, a.ln2_rstd, a.res2, w.ln2w, w.ln2b, N, C);
  matmul_fwd<<<blocks_for(size_t(N) * H), kThreads, 0, st>>>(a.fch, a.ln2, w.fcw, w.fcb, N, C, H);
  gelu_fwd<<<blocks_for(size_t(N) * H), kThreads, 0, st>>>(a.fchg, a.fch, size_t(N) * H);
  matmul_fwd<<<blocks_for(size_t(N) * C), kThreads, 0, st>>>(a.fcproj, a.fchg, w.fcprojw, nullptr, N, H, C);
}
// out = res2 + fcproj + b_fcproj (the row-parallel bias is added once, after the reduction)
inline void layer_forward_out(const LayerW& w, LayerA& a, const Dims& d, cudaStream_t st) {
  residual_fwd<<<blocks_for(size_t(d.N()) * d.C), kThreads, 0, st>>>(a.out, a.res2, a.fcproj, w.fcprojb, d.N(), d.C);
}
inline void layer_forward(const LayerW& w, LayerA& a, const float* in, const Dims& d, cudaStream_t st) {
  layer_forward_attn(w, a, in, d, st);
  layer_forward_mlp(w, a, d, st);
  layer_forward_out(w, a, d, st);
}
// LNf -> logits -> softmax + loss
inline void head_forward(const HeadW& w, HeadA& a, const float* in, const int* targets, const Dims& d, cudaStream_t st) {
  const int N = d.N();
  a.in = in;
  layernorm_fwd<<<blocks_for(N), kThreads, 0, st>>>(a.lnf, a.lnf_mean, a.lnf_rstd, in, w.lnfw, w.lnfb, N, d.C);
  matmul_fwd<<<blocks_for(size_t(N) * d.V), kThreads, 0, st>>>(a.probs, a.lnf, w.lmw, nullptr, N, d.C, d.V);
  crossentropy_fwd<<<blocks_for(N), kThreads, 0, st>>>(a.probs, a.losses, targets, N, d.V);
}

// Head backward: sets s.dres to d(loss)/d(head input). loss_scale = 1 / (tokens averaged over).
inline void head_backward(const HeadW& w, const HeadW& g, const HeadA& a, Scratch& s, const int* targets, const Dims& d,
                          float loss_scale, cudaStream_t st) {
  const int N = d.N(), C = d.C, V = d.V;
  crossentropy_bwd<<<blocks_for(size_t(N) * V), kThreads, 0, st>>>(s.dlogits, a.probs, targets, N, V, loss_scale);
  matmul_bwd_w<<<blocks_for(size_t(V) * C), kThreads, 0, st>>>(g.lmw, s.dlogits, a.lnf, N, C, V);
  matmul_bwd_inp<<<blocks_for(size_t(N) * C), kThreads, 0, st>>>(s.dln, s.dlogits, w.lmw, N, C, V, 0);
  CUDA_CHECK(cudaMemsetAsync(s.dres, 0, size_t(N) * C * sizeof(float), st));
  layernorm_bwd_inp<<<blocks_for(N), kThreads, 0, st>>>(s.dres, s.dln, a.in, w.lnfw, a.lnf_mean, a.lnf_rstd, N, C);
  layernorm_bwd_wb<<<blocks_for(C), kThreads, 0, st>>>(g.lnfw, g.lnfb, s.dln, a.in, a.lnf_mean, a.lnf_rstd, N, C);
}
// s.dres holds d(layer output). MLP branch: grads of fcprojw, fcprojb, fcw, fcb; s.dln =
// partial d(LN2 output) (TP: all-reduce s.dln next).
inline void layer_backward_mlp(const LayerW& w, const LayerW& g, const LayerA& a, Scratch& s, const Dims& d,
                               cudaStream_t st) {
  const int N = d.N(), C = d.C, H = d.H;
  bias_bwd<<<blocks_for(C), kThreads, 0, st>>>(g.fcprojb, s.dres, N, C);
  matmul_bwd_w<<<blocks_for(size_t(C) * H), kThreads, 0, st>>>(g.fcprojw, s.dres, a.fchg, N, H, C);
  matmul_bwd_inp<<<blocks_for(size_t(N) * H), kThreads, 0, st>>>(s.dfch, s.dres, w.fcprojw, N, H, C, 0);
  gelu_bwd<<<blocks_for(size_t(N) * H), kThreads, 0, st>>>(s.dfch, a.fch, s.dfch, size_t(N) * H);
  bias_bwd<<<blocks_for(H), kThreads, 0, st>>>(g.fcb, s.dfch, N, H);
  matmul_bwd_w<<<blocks_for(size_t(H) * C), kThreads, 0, st>>>(g.fcw, s.dfch, a.ln2, N, C, H);
  matmul_bwd_inp<<<blocks_for(size_t(N) * C), kThreads, 0, st>>>(s.dln, s.dfch, w.fcw, N, C, H, 0);
}
// LN2 backward: s.dres += d(res2) through LN2; grads of ln2w, ln2b.
inline void layer_backward_ln2(const LayerW& w, const LayerW& g, const LayerA& a, Scratch& s, const Dims& d,
                               cudaStream_t st) {
  const int N = d.N(), C = d.C;
  layernorm_bwd_inp<<<blocks_for(N), kThreads, 0, st>>>(s.dres, s.dln, a.res2, w.ln2w, a.ln2_mean, a.ln2_rstd, N, C);
  layernorm_bwd_wb<<<blocks_for(C), kThreads, 0, st>>>(g.ln2w, g.ln2b, s.dln, a.res2, a.ln2_mean, a.ln2_rstd, N, C);
}
// Attention branch: grads of attprojw, qkvw; s.dln = partial d(LN1 output) (TP: all-reduce next).
inline void layer_backward_attn(const LayerW& w, const LayerW& g, const LayerA& a, Scratch& s, const Dims& d,
                                cudaStream_t st) {
  const int N = d.N(), C = d.C, Cl = d.Cl();
  const size_t att = size_t(d.B) * d.NH * d.T * d.T;
  matmul_bwd_w<<<blocks_for(size_t(C) * Cl), kThreads, 0, st>>>(g.attprojw, s.dres, a.atty, N, Cl, C);
  matmul_bwd_inp<<<blocks_for(size_t(N) * Cl), kThreads, 0, st>>>(s.datty, s.dres, w.attprojw, N, Cl, C, 0);
  attn_bwd_datt<<<blocks_for(att), kThreads, 0, st>>>(s.datt, s.datty, a.qkv, d.B, d.T, d.NH, d.hs);
  attn_bwd_dv<<<blocks_for(size_t(N) * Cl), kThreads, 0, st>>>(s.dqkv, a.att, s.datty, d.B, d.T, d.NH, d.hs);
  attn_bwd_softmax<<<blocks_for(size_t(d.B) * d.NH * d.T), kThreads, 0, st>>>(s.dpreatt, a.att, s.datt,
                                                                               d.B * d.NH * d.T, d.T);
  attn_bwd_dqk<<<blocks_for(size_t(N) * 2 * Cl), kThreads, 0, st>>>(s.dqkv, s.dpreatt, a.qkv, d.B, d.T, d.NH, d.hs);
  matmul_bwd_w<<<blocks_for(size_t(3) * Cl * C), kThreads, 0, st>>>(g.qkvw, s.dqkv, a.ln1, N, C, 3 * Cl);
  matmul_bwd_inp<<<blocks_for(size_t(N) * C), kThreads, 0, st>>>(s.dln, s.dqkv, w.qkvw, N, C, 3 * Cl, 0);
}
// LN1 backward: s.dres += d(input) through LN1 (s.dres becomes d(layer input)); grads of ln1w, ln1b.
inline void layer_backward_ln1(const LayerW& w, const LayerW& g, const LayerA& a, Scratch& s, const Dims& d,
                               cudaStream_t st) {
  const int N = d.N(), C = d.C;
  layernorm_bwd_inp<<<blocks_for(N), kThreads, 0, st>>>(s.dres, s.dln, a.in, w.ln1w, a.ln1_mean, a.ln1_rstd, N, C);
  layernorm_bwd_wb<<<blocks_for(C), kThreads, 0, st>>>(g.ln1w, g.ln1b, s.dln, a.in, a.ln1_mean, a.ln1_rstd, N, C);
}
inline void layer_backward(const LayerW& w, const LayerW& g, const LayerA& a, Scratch& s, const Dims& d,
                           cudaStream_t st) {
  layer_backward_mlp(w, g, a, s, d, st);
  layer_backward_ln2(w, g, a, s, d, st);
  layer_backward_attn(w, g, a, s, d, st);
  layer_backward_ln1(w, g, a, s, d, st);
}
inline void embed_backward(const EmbedW& g, const Scratch& s, const int* tokens, const Dims& d, cudaStream_t st) {
  embed_bwd_wte<<<blocks_for(size_t(d.V) * d.C), kThreads, 0, st>>>(g.wte, s.dres, tokens, d.N(), d.V, d.C);
  embed_bwd_wpe<<<blocks_for(size_t(d.T) * d.C), kThreads, 0, st>>>(g.wpe, s.dres, d.B, d.T, d.C);
}

// The optimizer over n floats (a whole buffer or a shard). step counts from 1.
inline void optimizer_step(const Config& c, float* p, const float* g, float* m, float* v, size_t n, int step,
                           cudaStream_t st) {
  if (n == 0) return;
  if (c.sgd) {
    sgd_update<<<blocks_for(n), kThreads, 0, st>>>(p, g, n, c.lr);
  } else {
    const float b1 = 0.9f, b2 = 0.95f;
    const float bc1 = float(1.0 - std::pow(0.9, step)), bc2 = float(1.0 - std::pow(0.95, step));
    adamw_update<<<blocks_for(n), kThreads, 0, st>>>(p, g, m, v, n, c.lr, b1, b2, 1e-8f, c.wd, bc1, bc2);
  }
}
// Bytes of optimizer state per parameter (fp32 AdamW m and v; SGD none).
inline int optim_floats_per_param(const Config& c) { return c.sgd ? 0 : 2; }

// ---------------------------------------------------------------------------------
// The single-device reference: the whole model on one device, any batch size, with
// optional micro-batch accumulation (grads summed over micro-batches in order).
// ---------------------------------------------------------------------------------
struct Replica {
  Config c;
  ParamTable tab;
  Dims d;
  MemLedger mem;
  float *params, *grads, *m, *v;
  float* x0;
  std::vector<LayerA> acts;
  HeadA head;
  Scratch s;
  int *tokens, *targets;
  cudaStream_t st;
  std::vector<float> losses_host;

  // B: sequences per forward (micro-batch); tp, tp_rank: this replica is one
  // tensor-parallel shard of the model (tensor_parallel.cu), the whole model by default
  void init(const Config& cfg, int B, int tp = 1, int tp_rank = 0) {
    c = cfg;
    tab = make_table(c, 0, -1, tp, tp_rank);
    d = dims_for(c, B, tp);
    params = mem.alloc<float>(tab.total, kParams);
    grads = mem.alloc<float>(tab.total, kGrads);
    m = mem.alloc<float>(c.sgd ? 0 : tab.total, kOptim);
    v = mem.alloc<float>(c.sgd ? 0 : tab.total, kOptim);
    std::vector<float> h = init_params(c, tab);
    CUDA_CHECK(cudaMemcpy(params, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
    x0 = mem.alloc<float>(size_t(d.N()) * d.C, kActs);
    for (int l = 0; l < c.L; ++l) acts.push_back(alloc_layer_acts(mem, d));
    head = alloc_head_acts(mem, d);
    s = alloc_scratch(mem, d);
    tokens = mem.alloc<int>(size_t(d.N()), kWork);
    targets = mem.alloc<int>(size_t(d.N()), kWork);
    CUDA_CHECK(cudaStreamCreate(&st));
  }
  void forward(const int* h_tokens, const int* h_targets) {
    CUDA_CHECK(cudaMemcpyAsync(tokens, h_tokens, size_t(d.N()) * sizeof(int), cudaMemcpyHostToDevice, st));
    CUDA_CHECK(cudaMemcpyAsync(targets, h_targets, size_t(d.N()) * sizeof(int), cudaMemcpyHostToDevice, st));
    embed_forward(embed_view(tab, params), x0, tokens, d, st);
    const float* x = x0;
    for (int l = 0; l < c.L; ++l) {
      layer_forward(layer_view(tab, params, l + 1), acts[size_t(l)], x, d, st);
      x = acts[size_t(l)].out;
    }
    head_forward(head_view(tab, params), head, x, targets, d, st);
  }
  void backward(float loss_scale) {
    head_backward(head_view(tab, params), head_view(tab, grads), head, s, targets, d, loss_scale, st);
    for (int l = c.L - 1; l >= 0; --l)
      layer_backward(layer_view(tab, params, l + 1), layer_view(tab, grads, l + 1), acts[size_t(l)], s, d, st);
    embed_backward(embed_view(tab, grads), s, tokens, d, st);
  }
  // sum of this micro-batch's per-token losses (host, double, fixed order)
  double loss_sum() {
    losses_host.resize(size_t(d.N()));
    CUDA_CHECK(cudaMemcpyAsync(losses_host.data(), head.losses, size_t(d.N()) * sizeof(float), cudaMemcpyDeviceToHost, st));
    CUDA_CHECK(cudaStreamSynchronize(st));
    double s_ = 0;
    for (float x : losses_host) s_ += x;
    return s_;
  }
  // One training step over `micro` micro-batches of B sequences starting at global
  // sequence first_seq; returns the mean loss.
  double step(int stepno, long first_seq, int micro) {
    CUDA_CHECK(cudaMemsetAsync(grads, 0, tab.total * sizeof(float), st));
    double total = 0;
    const float scale = 1.0f / float(size_t(d.N()) * micro);
    for (int mb = 0; mb < micro; ++mb) {
      std::vector<int> in, tg_;
      make_batch(c, first_seq + long(mb) * d.B, d.B, in, tg_);
      forward(in.data(), tg_.data());
      total += loss_sum();
      backward(scale);
    }
    optimizer_step(c, params, grads, m, v, tab.total, stepno, st);
    CUDA_CHECK(cudaStreamSynchronize(st));
    return total / (double(d.N()) * micro);
  }
  std::vector<float> params_host() {
    std::vector<float> h(tab.total);
    CUDA_CHECK(cudaMemcpy(h.data(), params, tab.total * sizeof(float), cudaMemcpyDeviceToHost));
    return h;
  }
  std::vector<float> grads_host() {
    std::vector<float> h(tab.total);
    CUDA_CHECK(cudaMemcpy(h.data(), grads, tab.total * sizeof(float), cudaMemcpyDeviceToHost));
    return h;
  }
};

// Gradients against the reference's, tensor by tensor: max |a - ref| / max |ref| over
// the tensor (fp32 re-association gives ~1e-6; a missing 1/N, a stale or skipped
// bucket, a wrong shard give O(1)). Unlike the weights after AdamW (which moves a
// weight by ~lr whatever its gradient's size, so rounding-size gradients of either
// sign move it by +-lr), this is tight whatever the optimizer.
struct RelDiff {
  double worst = 0;
  std::string where;
  void add(const std::string& name, const float* a, const float* ref, size_t n) {
    double m = 0, e = 0;
    for (size_t k = 0; k < n; ++k) {
      m = std::fmax(m, std::fabs(double(ref[k])));
      const double d = std::fabs(double(a[k]) - double(ref[k]));
      e = std::isnan(d) ? INFINITY : std::fmax(e, d);
    }
    const double r = m > 0 ? e / m : (e > 0 ? INFINITY : 0.0);
    if (r > worst || (where.empty() && n)) {
      if (r >= worst) { worst = r; where = name; }
    }
  }
};

// Full (un-split) host copy of one logical tensor from a device's host buffer.
// Writes the local tensor's elements into their places in `full` (size rows*cols).
inline void scatter_to_full(const Tensor& t, int tp, int tp_rank, const float* local_flat, std::vector<float>& full) {
  full.resize(t.full_size());
  for (size_t k = 0; k < t.size(); ++k) full[full_index(t, tp, tp_rank, k)] = local_flat[t.offset + k];
}

// Max |a - b| and max |b| over every logical tensor of the whole model, comparing a
// reference table/buffer with a set of (table, buffer) pieces that cover it.
struct Diff {
  double max_abs = 0, max_ref = 0;
  std::string where;
};
inline void diff_tensor(Diff& df, const std::string& name, const std::vector<float>& a, const std::vector<float>& ref) {
  for (size_t k = 0; k < ref.size(); ++k) {
    const double e = std::fabs(double(a[k]) - double(ref[k]));
    if (e > df.max_abs || (std::isnan(e) && df.where.find("NaN") == std::string::npos)) {
      df.max_abs = std::isnan(e) ? INFINITY : e;
      df.where = name + "[" + std::to_string(k) + "]" + (std::isnan(e) ? " NaN" : "");
    }
    df.max_ref = std::fmax(df.max_ref, std::fabs(double(ref[k])));
  }
}

inline uint64_t fnv1a(const std::vector<float>& v) {
  uint64_t h = 1469598103934665603ULL;
  for (float f : v) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    for (int i = 0; i < 4; ++i) { h ^= (u >> (8 * i)) & 0xff; h *= 1099511628211ULL; }
  }
  return h;
}

// ---------------------------------------------------------------------------------
// --check-grad: the backward kernels against central finite differences of the
// loss, on the reference replica (one device). In each tensor: the element with the
// largest analytic gradient and two hashed ones. Passes when every checked element
// has |numeric - analytic| <= 0.03 |analytic| + 2e-5 (fp32 forward: the loss
// carries ~1e-7 relative rounding, over 2 eps = 2e-2 that is ~2e-5 of noise; the
// eps^2 term of the central difference is the 1-2% seen on a few tensors).
// ---------------------------------------------------------------------------------
inline bool check_grad(const Config& cfg_in) {
  Config c = cfg_in;
  c.sgd = true;
  Replica r;
  r.init(c, c.B);
  std::vector<int> in, tgt;
  make_batch(c, 0, c.B, in, tgt);
  const float scale = 1.0f / float(r.d.N());
  CUDA_CHECK(cudaMemset(r.grads, 0, r.tab.total * sizeof(float)));
  r.forward(in.data(), tgt.data());
  const double loss0 = r.loss_sum() * scale;
  r.backward(scale);
  std::vector<float> g(r.tab.total), p = r.params_host();
  CUDA_CHECK(cudaMemcpy(g.data(), r.grads, g.size() * sizeof(float), cudaMemcpyDeviceToHost));
  auto loss_at = [&](size_t k, float value) {
    CUDA_CHECK(cudaMemcpy(r.params + k, &value, sizeof(float), cudaMemcpyHostToDevice));
    r.forward(in.data(), tgt.data());
    return r.loss_sum() * scale;
  };
  const float eps = 1e-2f;
  int bad = 0, checked = 0;
  double worst = 0;
  std::printf("check-grad: loss %.6f, central differences with eps %g\n", loss0, eps);
  std::printf("%-10s %8s %14s %14s %10s\n", "tensor", "block", "analytic", "numeric", "rel err");
  for (auto& t : r.tab.tensors) {
    size_t picks[3] = {0, hash3(c.seed, 0xc4ec, uint32_t(t.uid)) % t.size(), hash3(c.seed, 0xc4ed, uint32_t(t.uid)) % t.size()};
    for (size_t k = 0; k < t.size(); ++k)
      if (std::fabs(g[t.offset + k]) > std::fabs(g[t.offset + picks[0]])) picks[0] = k;
    for (size_t pk : picks) {
      const size_t k = t.offset + pk;
      const double lp = loss_at(k, p[k] + eps), lm = loss_at(k, p[k] - eps);
      CUDA_CHECK(cudaMemcpy(r.params + k, &p[k], sizeof(float), cudaMemcpyHostToDevice));
      const double num = (lp - lm) / (2.0 * eps), ana = g[k];
      const double err = std::fabs(num - ana);
      const bool ok = err <= 0.03 * std::fabs(ana) + 2e-5;
      const double rel = err / std::fmax(std::fabs(ana), 1e-12);
      if (ok && std::fabs(ana) > 1e-3) worst = std::fmax(worst, rel);
      bad += !ok;
      ++checked;
      std::printf("%-10s %8d %14.6e %14.6e %10.2e%s\n", t.name.c_str(), t.block, ana, num, rel, ok ? "" : "  <-- FAIL");
    }
  }
  std::printf("check-grad %s: %d of %d elements within 0.03|g| + 2e-5 (largest relative error where |g| > 1e-3: %.2e)\n",
              bad ? "FAIL" : "PASS", checked - bad, checked, worst);
  std::printf("%s\n", bad ? "FAIL" : "PASS");
  r.mem.free_all();
  return bad == 0;
}

// Timing on the rank-0 stream: cudaEventElapsedTime between two events.
struct StepTimer {
  cudaEvent_t a, b;
  void init() { CUDA_CHECK(cudaEventCreate(&a)); CUDA_CHECK(cudaEventCreate(&b)); }
  void start(cudaStream_t s) { CUDA_CHECK(cudaEventRecord(a, s)); }
  void stop(cudaStream_t s) { CUDA_CHECK(cudaEventRecord(b, s)); }
  float ms() {
    CUDA_CHECK(cudaEventSynchronize(b));
    float t = 0;
    CUDA_CHECK(cudaEventElapsedTime(&t, a, b));
    return t;
  }
};

// The devices this process drives: --ranks N (default: every device).
inline int resolve_ranks(int requested) {
  int ndev = 0;
  CUDA_CHECK(cudaGetDeviceCount(&ndev));
  const int n = requested > 0 ? requested : ndev;
  if (n > ndev) {
    std::fprintf(stderr, "--ranks %d but only %d device(s) (with simtlab: simt exec --gpus %d file.cu)\n", n, ndev, n);
    std::exit(2);
  }
  return n;
}

}  // namespace tg
