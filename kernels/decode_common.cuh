// Decode family: single-token decode attention over a KV cache, the inner loop of LLM
// serving. Each of `batch` sequences has one new query token per query head and a
// cache of len[b] earlier tokens (lengths differ per sequence, as in a served batch);
// for every query head h,
//   o[b][h] = softmax(q[b][h] . K[b][h / group][t] * scale over t < len[b]) @ V[b][h / group]
// with scale = 1 / sqrt(dim) and group = heads / kv_heads query heads per KV head
// (GQA; kv_heads == heads is plain multi-head attention). fp32 throughout.
//
// Every version gives a (sequence, head) pair to one warp: the lanes split the head
// dimension (lane l holds elements l, l + 32, ...), so a K or V row is one coalesced
// load per 32 elements; a token's score is the lanes' partial dot products summed by
// __shfl_xor_sync; the softmax is online (a running max and sum, the output rescaled
// when the max grows, as softmax_online), so K and V are read once, in token order.
//   decode_contiguous.cu  K/V cache contiguous per sequence and KV head,
//                         [batch][kv_heads][seq][dim]: a warp per query head, so a KV
//                         head's rows are read once per query head of its group
//   decode_paged.cu       vLLM's paged layout: K/V in a pool of fixed blocks of 16
//                         tokens, [blocks][kv_heads][16][dim], found through a block
//                         table per sequence (here shuffled: logical neighbours are
//                         physically apart). One block-table load per 16 tokens, and
//                         each K/V load depends on it; the same sectors per K/V row
//   decode_gqa.cu         a warp per KV head serving its whole group of query heads:
//                         each K and V row read once per group, not once per head
//   decode_fp8_kv.cu      decode_contiguous with the cache in fp8 E4M3 (1 byte, not 4)
//                         and an fp32 scale per KV head (vLLM's per-head scheme),
//                         dequantized on load: a quarter of the K/V sectors, the same
//                         requests and sum order; its quantization, driver and
//                         reference are in its own file
// The first three do the same float operations in the same order per query head: their
// outputs are bit-identical (a test checks it).
//
// RoPE (namespace rope below, rope.cu): the rotary embedding of the new tokens' q and
// k, GPT-NeoX / Llama's half-split form, before they meet the cache.
//
// Run:  simt run decode_paged --batch 4 --seq 512 --heads 8 --kv_heads 2 --dim 64
// CPU reference: in double, below. nvcc builds the same files unchanged.
#pragma once
#include "kernels/harness.hpp"
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace decode {

using namespace simt::kernels;

constexpr int kBlockTokens = 16;  // vLLM's default block size
constexpr int kMaxGroup = 8;      // query heads per KV head a decode_gqa warp serves
constexpr int kMaxPerLane = 4;    // dim up to 128
constexpr int kWarpsPerBlock = 4;

inline std::vector<Param> params() {
  return {{"batch", "4", "sequences, one new token each"},
          {"seq", "512", "cached tokens of the longest sequence (sequence b has seq - (97 b mod (seq/2 + 1)))"},
          {"heads", "8", "query heads"},
          {"kv_heads", "2", "KV heads (divides heads; heads / kv_heads <= 8)"},
          {"dim", "64", "head dimension (a multiple of 32, at most 128)"}};
}

struct Shape {
  int batch, seq, heads, kv_heads, dim;
  int group() const { return heads / kv_heads; }
  int max_blocks() const { return (seq + kBlockTokens - 1) / kBlockTokens; }
};

inline Shape shape(const Params& p) {
  Shape s{int(p.integer("batch")), int(p.integer("seq")), int(p.integer("heads")), int(p.integer("kv_heads")),
          int(p.integer("dim"))};
  if (s.heads % s.kv_heads != 0 || s.group() > kMaxGroup)
    throw std::invalid_argument("--kv_heads must divide --heads, with at most 8 query heads per KV head");
  if (s.dim % 32 != 0 || s.dim > 32 * kMaxPerLane)
    throw std::invalid_argument("--dim must be a multiple of 32, at most 128");
  return s;
}

inline int seq_len(const Shape& s, int b) { return s.seq - int((97ll * b) % (s.seq / 2 + 1)); }

// Everything a version may use: the contiguous cache and the paged one hold the same
// logical K and V; block_table[b][j] is the pool block of sequence b's tokens
// 16 j .. 16 j + 15.
struct Device {
  const float *q, *k, *v, *k_pool, *v_pool;
  const int *lens, *block_table;
  float* o;
  Shape s;
  float scale;
};

// The online-softmax step for one score (every lane holds the same s, m and l): the
// running max m, the sum l of exp(score - m) and the lanes' share of the output acc
// (rescaled when the max grows). One expf per token, as softmax::online_add.
template <int kPerLane>
__device__ inline void online_step(float s, float& m, float& l, float (&acc)[kPerLane], const float (&vv)[kPerLane]) {
  if (s > m) {
    const float c = expf(m - s);  // m = -inf at the start: c = 0
    l = l * c + 1.0f;
#pragma unroll
    for (int i = 0; i < kPerLane; ++i) acc[i] = acc[i] * c + vv[i];
    m = s;
  } else {
    const float e = expf(s - m);
    l += e;
#pragma unroll
    for (int i = 0; i < kPerLane; ++i) acc[i] += e * vv[i];
  }
}

// The sum of the lanes' v, to every lane (butterfly).
__device__ inline float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

// One warp attends kGroup query heads (q: kGroup * dim floats, consecutive heads) over
// len tokens of one KV head, each lane holding kPerLane = dim / 32 elements of a row;
// rows(t) gives token t's row offset in k and v (so the caller chooses the layout).
// o: kGroup * dim floats. Both counts are compile-time constants so that q, the
// accumulators and each token's K and V rows stay in registers: with runtime counts
// nvcc keeps these arrays in local memory (a 288-byte stack frame), and every token's
// rows go out to it and back — measured on the H200, decode_contiguous took 917 us at
// its defaults that way.
template <int kGroup, int kPerLane, class Rows>
__device__ inline void attend_fixed(const float* q, int len, int dim, float scale, Rows rows, const float* k,
                                    const float* v, float* o) {
  const int lane = threadIdx.x % 32;
  float qr[kGroup][kPerLane], acc[kGroup][kPerLane], m[kGroup], l[kGroup];
#pragma unroll
  for (int g = 0; g < kGroup; ++g) {
    m[g] = -INFINITY, l[g] = 0.0f;
#pragma unroll
    for (int i = 0; i < kPerLane; ++i) qr[g][i] = q[g * dim + lane + 32 * i], acc[g][i] = 0.0f;
  }
  for (int t = 0; t < len; ++t) {
    const size_t row = rows(t);
    float kk[kPerLane], vv[kPerLane];
#pragma unroll
    for (int i = 0; i < kPerLane; ++i) kk[i] = k[row + lane + 32 * i];
#pragma unroll
    for (int i = 0; i < kPerLane; ++i) vv[i] = v[row + lane + 32 * i];
#pragma unroll
    for (int g = 0; g < kGroup; ++g) {
      float partial = 0.0f;
#pragma unroll
      for (int i = 0; i < kPerLane; ++i) partial += qr[g][i] * kk[i];
      online_step<kPerLane>(warp_sum(partial) * scale, m[g], l[g], acc[g], vv);
    }
  }
#pragma unroll
  for (int g = 0; g < kGroup; ++g)
#pragma unroll
    for (int i = 0; i < kPerLane; ++i) o[g * dim + lane + 32 * i] = acc[g][i] / l[g];
}

// attend_fixed for a dim known only at run time (a multiple of 32, at most 128).
template <int kGroup, class Rows>
__device__ inline void attend(const float* q, int len, int dim, float scale, Rows rows, const float* k,
                              const float* v, float* o) {
  switch (dim / 32) {
    case 1: return attend_fixed<kGroup, 1>(q, len, dim, scale, rows, k, v, o);
    case 2: return attend_fixed<kGroup, 2>(q, len, dim, scale, rows, k, v, o);
    case 3: return attend_fixed<kGroup, 3>(q, len, dim, scale, rows, k, v, o);
    default: return attend_fixed<kGroup, kMaxPerLane>(q, len, dim, scale, rows, k, v, o);
  }
}

// ... and for a group size known only at run time (1 to kMaxGroup query heads).
template <class Rows>
__device__ inline void attend_group(const float* q, int group, int len, int dim, float scale, Rows rows,
                                    const float* k, const float* v, float* o) {
  switch (group) {
    case 1: return attend<1>(q, len, dim, scale, rows, k, v, o);
    case 2: return attend<2>(q, len, dim, scale, rows, k, v, o);
    case 3: return attend<3>(q, len, dim, scale, rows, k, v, o);
    case 4: return attend<4>(q, len, dim, scale, rows, k, v, o);
    case 5: return attend<5>(q, len, dim, scale, rows, k, v, o);
    case 6: return attend<6>(q, len, dim, scale, rows, k, v, o);
    case 7: return attend<7>(q, len, dim, scale, rows, k, v, o);
    default: return attend<kMaxGroup>(q, len, dim, scale, rows, k, v, o);
  }
}

// Row offsets of one (sequence, KV head) in the contiguous cache [batch][kv_heads][seq][dim].
struct ContiguousRows {
  size_t base;
  int dim;
  __device__ size_t operator()(int t) const { return base + size_t(t) * dim; }
};

// q: 2 * test_values (multiples of 1/32 in [-2, 2)); K, V: test_values. q . k is then
// a sum of multiples of 2^-11 below 2^8: exact in float in any order, so every score
// is exact and the versions differ from the reference only through expf and the sums.
struct Inputs {
  std::vector<float> q, k, v;  // k, v: [batch][kv_heads][seq][dim]
  std::vector<int> lens;
};
inline Inputs inputs(const Shape& s) {
  const std::size_t kv = std::size_t(s.batch) * s.kv_heads * s.seq * s.dim;
  Inputs in{test_values(std::size_t(s.batch) * s.heads * s.dim, 1), test_values(kv, 2), test_values(kv, 3), {}};
  for (float& x : in.q) x *= 2.0f;
  for (int b = 0; b < s.batch; ++b) in.lens.push_back(seq_len(s, b));
  return in;
}

// The pool: every sequence's blocks, numbered in order, placed at shuffled pool
// positions (Fisher-Yates with a fixed xorshift: the same table in both builds).
struct Paged {
  std::vector<int> table;  // [batch][max_blocks], -1 past a sequence's end
  std::vector<float> k_pool, v_pool;
  int blocks = 0;
};
inline Paged paginate(const Shape& s, const Inputs& in) {
  Paged pg;
  pg.table.assign(std::size_t(s.batch) * s.max_blocks(), -1);
  for (int b = 0; b < s.batch; ++b) pg.blocks += (in.lens[b] + kBlockTokens - 1) / kBlockTokens;
  std::vector<int> where(pg.blocks);
  for (int i = 0; i < pg.blocks; ++i) where[i] = i;
  std::uint32_t x = 2463534242u;
  for (int i = pg.blocks - 1; i > 0; --i) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    std::swap(where[i], where[x % std::uint32_t(i + 1)]);
  }
  const std::size_t block_floats = std::size_t(s.kv_heads) * kBlockTokens * s.dim;
  pg.k_pool.assign(block_floats * pg.blocks, 0.0f);
  pg.v_pool.assign(block_floats * pg.blocks, 0.0f);
  int logical = 0;
  for (int b = 0; b < s.batch; ++b)
    for (int j = 0; j * kBlockTokens < in.lens[b]; ++j, ++logical) {
      const int phys = where[logical];
      pg.table[std::size_t(b) * s.max_blocks() + j] = phys;
      for (int h = 0; h < s.kv_heads; ++h)
        for (int r = 0; r < kBlockTokens && j * kBlockTokens + r < in.lens[b]; ++r)
          for (int d = 0; d < s.dim; ++d) {
            const std::size_t from = ((std::size_t(b) * s.kv_heads + h) * s.seq + j * kBlockTokens + r) * s.dim + d;
            const std::size_t to = ((std::size_t(phys) * s.kv_heads + h) * kBlockTokens + r) * s.dim + d;
            pg.k_pool[to] = in.k[from];
            pg.v_pool[to] = in.v[from];
          }
    }
  return pg;
}

template <class T>
T* upload(const std::vector<T>& h) {
  T* d;
  cudaMalloc(&d, h.size() * sizeof(T));
  cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}

// launch(const Device&) runs one version; returns o [batch][heads][dim].
template <class Launch>
Outputs run(const Params& p, Launch launch) {
  const Shape s = shape(p);
  const Inputs in = inputs(s);
  const Paged pg = paginate(s, in);
  Device d{upload(in.q), upload(in.k), upload(in.v), upload(pg.k_pool), upload(pg.v_pool),
           upload(in.lens), upload(pg.table), nullptr, s, 1.0f / std::sqrt(float(s.dim))};
  const std::size_t out_size = std::size_t(s.batch) * s.heads * s.dim;
  float* o;
  cudaMalloc(&o, out_size * sizeof(float));
  d.o = o;
  launch(d);
  std::vector<float> out(out_size);
  cudaMemcpy(out.data(), o, out_size * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(o);
  for (const void* ptr : {(const void*)d.q, (const void*)d.k, (const void*)d.v, (const void*)d.k_pool,
                          (const void*)d.v_pool, (const void*)d.lens, (const void*)d.block_table})
    cudaFree(const_cast<void*>(ptr));
  return {{{"o", out}}};
}

#if !defined(__CUDACC__)
inline std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// The reference in double. The scores are exact (see Inputs); each weight
// exp(score - max) is the H200's expf, within 2 ulps; the sums of len weights and of
// len weighted values are in float, in token order (at most len roundings each, Higham
// ch. 3), the rescalings one rounding per growth of the max, and the division one
// more. So o[d] is checked within (3 len + 8) u * (sum_t w_t |v_td| / sum_t w_t + |o_d|),
// u = 2^-24: the bound, scaled by the size of the terms.
inline Check check(const Params& p, const Outputs& got) {
  const Shape s = shape(p);
  const Inputs in = inputs(s);
  const float scale = 1.0f / std::sqrt(float(s.dim));
  std::vector<double> o(std::size_t(s.batch) * s.heads * s.dim), bound(o.size());
  const double u = std::ldexp(1.0, -24);
  for (int b = 0; b < s.batch; ++b)
    for (int h = 0; h < s.heads; ++h) {
      const int len = in.lens[b], kvh = h / s.group();
      const float* q = &in.q[(std::size_t(b) * s.heads + h) * s.dim];
      const float* k = &in.k[(std::size_t(b) * s.kv_heads + kvh) * s.seq * s.dim];
      const float* v = &in.v[(std::size_t(b) * s.kv_heads + kvh) * s.seq * s.dim];
      std::vector<double> score(len);
      double top = -INFINITY, sum = 0;
      for (int t = 0; t < len; ++t) {
        double dot = 0;
        for (int d = 0; d < s.dim; ++d) dot += double(q[d]) * k[std::size_t(t) * s.dim + d];
        score[t] = dot * scale;
        top = std::max(top, score[t]);
      }
      for (int t = 0; t < len; ++t) sum += (score[t] = std::exp(score[t] - top));
      for (int d = 0; d < s.dim; ++d) {
        double acc = 0, acc_abs = 0;
        for (int t = 0; t < len; ++t) {
          acc += score[t] * v[std::size_t(t) * s.dim + d];
          acc_abs += score[t] * std::fabs(v[std::size_t(t) * s.dim + d]);
        }
        const std::size_t at = (std::size_t(b) * s.heads + h) * s.dim + d;
        o[at] = acc / sum;
        bound[at] = (3.0 * len + 8) * u * (acc_abs / sum + std::fabs(o[at]));
      }
    }
  const std::vector<float>& out = got.at("o").data;
  Check c;
  if (out.size() != o.size()) {
    c.detail = "o: size " + std::to_string(out.size()) + " != expected " + std::to_string(o.size());
    return c;
  }
  c.ok = true;
  std::string first;
  for (std::size_t i = 0; i < o.size(); ++i) {
    double e = std::fabs(double(out[i]) - o[i]);
    if (std::isnan(e)) e = INFINITY;
    c.max_abs_err = std::max(c.max_abs_err, e);
    if (e > bound[i] && c.ok) c.ok = false, first = "; index " + std::to_string(i) + ": got " + num(out[i]) + ", want " + num(o[i]);
  }
  c.detail = "o = softmax(q K^T / sqrt(dim)) V per sequence and head: " + std::to_string(o.size()) + " values" +
             (c.ok ? "" : " NOT") + " within (3 len + 8) u * scale, max |error| " + num(c.max_abs_err) + first;
  return c;
}
#else
inline constexpr std::nullptr_t check = nullptr;  // the reference runs in the simulator build only
#endif

}  // namespace decode

// ---- RoPE: rotary position embedding of q and k (GPT-NeoX / Llama half-split) ----
// For a head vector x of dim elements at position pos, with h = dim / 2 and
// theta_i = pos * 10000^(-2 i / dim):
//   out[i]     = x[i] cos theta_i - x[i + h] sin theta_i
//   out[i + h] = x[i + h] cos theta_i + x[i] sin theta_i        (i < h)
// The cos and sin come from a table [positions][h] built once on the host (as Llama's
// freqs_cis cache), so the kernel is multiplies and adds only. rope.cu rotates q
// [tokens][heads][dim] and k [tokens][kv_heads][dim] in place, one launch.
namespace rope {

using namespace simt::kernels;

inline std::vector<Param> params() {
  return {{"tokens", "256", "tokens (positions pos0, pos0 + 1, ...)"},
          {"heads", "8", "query heads"},
          {"kv_heads", "2", "key heads"},
          {"dim", "64", "head dimension (even)"},
          {"pos0", "0", "position of the first token"}};
}

struct Shape {
  int tokens, heads, kv_heads, dim, pos0;
};
inline Shape shape(const Params& p) {
  Shape s{int(p.integer("tokens")), int(p.integer("heads")), int(p.integer("kv_heads")), int(p.integer("dim")),
          int(p.integer("pos0", 0, 1 << 20))};
  if (s.dim % 2 != 0) throw std::invalid_argument("--dim must be even");
  return s;
}

// cos and sin of theta for positions pos0 .. pos0 + tokens - 1, [tokens][dim / 2], in
// double rounded to float: the same bits in both builds (the host's libm is not the
// GPU's, but this table is computed once on the host and uploaded).
struct Inputs {
  std::vector<float> q, k, cos, sin;
};
inline Inputs inputs(const Shape& s) {
  const int h = s.dim / 2;
  Inputs in{test_values(std::size_t(s.tokens) * s.heads * s.dim, 1),
            test_values(std::size_t(s.tokens) * s.kv_heads * s.dim, 2), {}, {}};
  in.cos.resize(std::size_t(s.tokens) * h);
  in.sin.resize(in.cos.size());
  for (int t = 0; t < s.tokens; ++t)
    for (int i = 0; i < h; ++i) {
      const double theta = double(s.pos0 + t) * std::pow(10000.0, -2.0 * i / s.dim);
      in.cos[std::size_t(t) * h + i] = float(std::cos(theta));
      in.sin[std::size_t(t) * h + i] = float(std::sin(theta));
    }
  return in;
}

// The rotation of element pair (i, i + h) of one head, in this order in every build.
__device__ inline void rotate(float* x, int i, int h, float c, float s) {
  const float x1 = x[i], x2 = x[i + h];
  x[i] = x1 * c - x2 * s;
  x[i + h] = x2 * c + x1 * s;
}

// launch(d_q, d_k, d_cos, d_sin, shape) rotates q and k in place; returns both.
template <class Launch>
Outputs run(const Params& p, Launch launch) {
  const Shape s = shape(p);
  const Inputs in = inputs(s);
  float* q = decode::upload(in.q);
  float* k = decode::upload(in.k);
  float* c = decode::upload(in.cos);
  float* sn = decode::upload(in.sin);
  launch(q, k, c, sn, s);
  std::vector<float> q_out(in.q.size()), k_out(in.k.size());
  cudaMemcpy(q_out.data(), q, q_out.size() * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(k_out.data(), k, k_out.size() * sizeof(float), cudaMemcpyDeviceToHost);
  for (float* d : {q, k, c, sn}) cudaFree(d);
  return {{{"q", q_out}, {"k", k_out}}};
}

#if !defined(__CUDACC__)
// The reference in double with the same float table: each output is two rounded
// products and a rounded sum, within 3 u (|x1 c| + |x2 s|), u = 2^-24.
inline Check check(const Params& p, const Outputs& got) {
  const Shape s = shape(p);
  const Inputs in = inputs(s);
  const int h = s.dim / 2;
  Check c;
  c.ok = true;
  std::string first;
  auto one = [&](const std::vector<float>& x, const std::vector<float>& out, int heads, const char* name) {
    if (out.size() != x.size()) {
      c.ok = false, first = std::string("; ") + name + ": wrong size";
      return;
    }
    for (int t = 0; t < s.tokens; ++t)
      for (int hd = 0; hd < heads; ++hd)
        for (int i = 0; i < h; ++i) {
          const std::size_t at = (std::size_t(t) * heads + hd) * s.dim + i;
          const double co = in.cos[std::size_t(t) * h + i], si = in.sin[std::size_t(t) * h + i];
          const double x1 = x[at], x2 = x[at + h];
          const double want[2] = {x1 * co - x2 * si, x2 * co + x1 * si};
          const double bound = 3 * std::ldexp(1.0, -24) * (std::fabs(x1) + std::fabs(x2)) * (std::fabs(co) + std::fabs(si));
          for (int j = 0; j < 2; ++j) {
            const double e = std::fabs(double(out[at + j * h]) - want[j]);
            c.max_abs_err = std::max(c.max_abs_err, std::isnan(e) ? INFINITY : e);
            if (!(e <= bound) && c.ok)
              c.ok = false, first = std::string("; ") + name + " index " + std::to_string(at + j * h) + ": got " +
                                    decode::num(out[at + j * h]) + ", want " + decode::num(want[j]);
          }
        }
  };
  one(in.q, got.at("q").data, s.heads, "q");
  one(in.k, got.at("k").data, s.kv_heads, "k");
  c.detail = "q and k rotated (half-split RoPE): " + std::string(c.ok ? "" : "NOT ") + "within 3 u * scale, max |error| " +
             decode::num(c.max_abs_err) + first;
  return c;
}
#else
inline constexpr std::nullptr_t check = nullptr;  // the reference runs in the simulator build only
#endif

}  // namespace rope
