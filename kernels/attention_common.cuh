// Attention family: O = softmax(Q K^T * scale [+ causal mask]) V, per batch b and
// head h, for sequence length N and head dim d (64 or 128), scale = 1/sqrt(d).
// Q, K, V, O are (B, H, N, d), row-major and contiguous; L (B, H, N) is the row
// logsumexp, L[i] = max_j s_ij + log(sum_j exp(s_ij - max)), that FlashAttention's
// forward keeps for its backward. With --causal 1 query i sees keys j <= i only.
//
// Versions, each a lesson on the previous one (simt list shows them too):
//   attention_naive.cu           3 launches, the textbook: S = Q K^T * scale written to global
//                                memory (16x16 shared tiles), a warp per row softmaxes S in place,
//                                O = P V (tiles again). The N x N matrix S goes through HBM three
//                                times: written, read and rewritten, read again
//   attention_flash.cu           1 launch, FlashAttention-2's forward: a block of 8 warps per
//                                (32-query tile, head), each warp owning 4 query rows throughout;
//                                K and V stream through shared memory in tiles of 16 keys; online
//                                softmax, the running output (in registers) rescaled when the max
//                                grows and divided by the sum once at the end; L written out. No
//                                N x N in memory: DRAM sees Q, K, V, O and L once (K and V are
//                                re-read by every query tile, from L2). Causal: the tiles above
//                                the diagonal are never loaded
//   attention_flash_wmma.cu      the flash forward with fp16 Q, K, V on the tensor cores (wmma
//                                m16n16k16, fp32 accumulate): S = Q K^T and O += P V are mma_sync;
//                                a warp owns 16 query rows, P is rounded to fp16 for the second
//                                product; half the load bytes and no FFMA in the products
//   attention_flash_backward.cu  FlashAttention-2's backward (its driver runs attention_flash's
//                                forward first, for O and L): D = rowsum(dO * O), then a block
//                                per 64-key tile accumulates dK and dV over the query tiles,
//                                recomputing P = exp(S - L) from Q, K and L (no N x N stored),
//                                then a block per 64-query tile accumulates dQ over the key
//                                tiles. The separate dQ pass recomputes S and dP a second time
//                                (7 N x N x d products where a backward reading a stored P does
//                                4) instead of FlashAttention-2's atomicAdd into dQ, so every
//                                sum has one order and the bits are reproducible
//   attention_naive_backward.cu  the textbook backward for comparison (FlashAttention's Algorithm
//                                3): attention_naive's forward keeps P in global memory, then
//                                dV = P^T dO, dP = dO V^T, dS = P (dP - rowsum(P dP)), dQ = dS K,
//                                dK = dS^T Q, five launches with dP and dS going through global
//                                memory: 4 products where the flash backward does 7, but 7 N x N
//                                passes per head where it does none
//
// Run:  simt run attention_flash --batch 1 --heads 4 --seq 256 --dim 64 [--causal 1]
// CPU reference: in double, below. nvcc builds the same files unchanged.
#pragma once
#include "kernels/harness.hpp"
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace attention {

using namespace simt::kernels;

inline std::vector<Param> params() {
  return {{"batch", "1", "B, sequences"},
          {"heads", "4", "H, attention heads"},
          {"seq", "256", "N, sequence length (any positive number)"},
          {"dim", "64", "d, head dimension: 64 or 128"},
          {"causal", "0", "1: query i sees keys j <= i only"}};
}

struct Shape {
  int batch, heads, n, d;
  bool causal;
  float scale;  // 1/sqrt(d) in float, the value every version multiplies by
  int bh() const { return batch * heads; }
  std::size_t rows() const { return std::size_t(bh()) * n; }  // query rows over all heads
  std::size_t size() const { return rows() * d; }             // elements of Q, K, V or O
};

inline Shape shape(const Params& p) {
  Shape s{int(p.integer("batch")), int(p.integer("heads")), int(p.integer("seq")), int(p.integer("dim")),
          p.integer("causal", 0, 1) != 0, 0.0f};
  if (s.d != 64 && s.d != 128) throw std::invalid_argument("--dim must be 64 or 128");
  s.scale = 1.0f / std::sqrt(float(s.d));
  return s;
}

// Inputs, identical in both builds. Q: multiples of 1/16 in [-4, 4); K, V and dO:
// multiples of 1/64 in [-1, 1). Every product q*k is a multiple of 2^-10 and every
// dot product over d <= 128 stays below 2^9, so Q K^T is exact in float in any order
// (every version computes the same S before the scale), and all four are exact in
// fp16 (the wmma version's inputs lose nothing). The scores s = q.k/sqrt(d) then
// have a spread of about 1.3 (std), so the softmax is far from uniform.
struct Inputs {
  std::vector<float> q, k, v, d_o;
};
inline Inputs inputs(const Shape& s) {
  Inputs in{test_values(s.size(), 1), test_values(s.size(), 2), test_values(s.size(), 3),
            test_values(s.size(), 4)};
  for (float& x : in.q) x *= 4.0f;
  return in;
}

inline float* upload(const std::vector<float>& h) {
  float* d;
  cudaMalloc(&d, h.size() * sizeof(float));
  cudaMemcpy(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);
  return d;
}
inline std::vector<float> download(const float* d, std::size_t n) {
  std::vector<float> h(n);
  cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
  return h;
}

// The forward's driver: launch(q, k, v, o, l, shape) runs one version (fp32
// inputs); returns O, and L where the version writes it (with_l).
template <class Launch>
Outputs run_forward(const Params& p, bool with_l, Launch launch) {
  const Shape s = shape(p);
  const Inputs in = inputs(s);
  float *q = upload(in.q), *k = upload(in.k), *v = upload(in.v), *o, *l;
  cudaMalloc(&o, s.size() * sizeof(float));
  cudaMalloc(&l, s.rows() * sizeof(float));
  launch(q, k, v, o, l, s);
  Outputs out{{{"o", download(o, s.size())}}};
  if (with_l) out.buffers.push_back({"l", download(l, s.rows())});
  for (float* d : {q, k, v, o, l}) cudaFree(d);
  return out;
}

#if !defined(__CUDACC__)
inline std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// |got - want| <= atol + rtol * scale everywhere, scale the size of the terms that
// were added up to make `want` (an output that cancels is held to its terms, not to
// itself). Reports the largest error relative to its bound (`worst` in detail).
inline Check compare_scaled(const std::vector<float>& got, const std::vector<double>& want,
                            const std::vector<double>& scale, double rtol, double atol, const std::string& what) {
  Check c;
  if (got.size() != want.size()) {
    c.detail = what + ": size " + std::to_string(got.size()) + " != expected " + std::to_string(want.size());
    return c;
  }
  c.ok = true;
  std::size_t worst = 0;
  double worst_ratio = -1;
  for (std::size_t i = 0; i < got.size(); ++i) {
    double e = std::fabs(double(got[i]) - want[i]);
    if (std::isnan(e)) e = INFINITY;
    const double bound = atol + rtol * scale[i];
    c.max_abs_err = std::max(c.max_abs_err, e);
    if (e / bound > worst_ratio) worst_ratio = e / bound, worst = i, c.tolerance = bound;
    if (!(e <= bound)) c.ok = false;
  }
  c.detail = what + ": " + std::to_string(got.size()) + " values" + (c.ok ? "" : " NOT") + " within " + num(atol) +
             " + " + num(rtol) + " * scale, max |error| " + num(c.max_abs_err) +
             (got.empty() ? ""
                          : "; worst " + num(worst_ratio) + " of its bound at index " + std::to_string(worst) +
                                " (got " + num(got[worst]) + ", want " + num(want[worst]) + ")");
  return c;
}

// The whole problem in double: the forward (O, L) and, for the backward, the
// gradients for the family's dO, each with the scale its rounding is relative to.
struct Reference {
  std::vector<double> o, o_scale, l, l_scale;
  std::vector<double> dq, dq_scale, dk, dk_scale, dv, dv_scale;
};

// q, k, v as the kernel saw them (the wmma version passes them through fp16,
// which changes nothing for the family's inputs, but the reference does not rely
// on that). S is computed from the float scale every version multiplies by.
inline Reference reference(const Shape& s, const Inputs& in, bool backward) {
  const int n = s.n, d = s.d;
  Reference r;
  r.o.assign(s.size(), 0), r.o_scale.assign(s.size(), 0), r.l.assign(s.rows(), 0), r.l_scale.assign(s.rows(), 0);
  if (backward)
    for (auto* v : {&r.dq, &r.dq_scale, &r.dk, &r.dk_scale, &r.dv, &r.dv_scale}) v->assign(s.size(), 0);
  std::vector<double> p(std::size_t(n) * n), ds_abs(std::size_t(n) * n), ds(std::size_t(n) * n);
  for (int h = 0; h < s.bh(); ++h) {
    const std::size_t base = std::size_t(h) * n * d;
    const float *q = &in.q[base], *k = &in.k[base], *v = &in.v[base], *dout = &in.d_o[base];
    for (int i = 0; i < n; ++i) {
      const int visible = s.causal ? i + 1 : n;
      double m = -INFINITY, sum = 0;
      for (int j = 0; j < visible; ++j) {
        double dot = 0;
        for (int c = 0; c < d; ++c) dot += double(q[i * d + c]) * k[j * d + c];
        p[std::size_t(i) * n + j] = dot * double(s.scale);
        m = std::max(m, p[std::size_t(i) * n + j]);
      }
      for (int j = 0; j < visible; ++j) sum += std::exp(p[std::size_t(i) * n + j] - m);
      for (int j = 0; j < n; ++j) p[std::size_t(i) * n + j] = j < visible ? std::exp(p[std::size_t(i) * n + j] - m) / sum : 0;
      r.l[std::size_t(h) * n + i] = m + std::log(sum);
      r.l_scale[std::size_t(h) * n + i] = 1 + std::fabs(m) + std::log(sum);
      for (int c = 0; c < d; ++c) {
        double acc = 0, mag = 0;
        for (int j = 0; j < visible; ++j) {
          acc += p[std::size_t(i) * n + j] * v[j * d + c];
          mag += p[std::size_t(i) * n + j] * std::fabs(v[j * d + c]);
        }
        r.o[base + i * d + c] = acc, r.o_scale[base + i * d + c] = mag;
      }
    }
    if (!backward) continue;
    // dP = dO V^T, D = rowsum(dO * O), dS = P * (dP - D); the magnitudes beside.
    for (int i = 0; i < n; ++i) {
      double di = 0, di_abs = 0;
      for (int c = 0; c < d; ++c) {
        di += double(dout[i * d + c]) * r.o[base + i * d + c];
        di_abs += std::fabs(double(dout[i * d + c]) * r.o[base + i * d + c]);
      }
      for (int j = 0; j < n; ++j) {
        double dp = 0, dp_abs = 0;
        for (int c = 0; c < d; ++c) {
          dp += double(dout[i * d + c]) * v[j * d + c];
          dp_abs += std::fabs(double(dout[i * d + c]) * v[j * d + c]);
        }
        const double pij = p[std::size_t(i) * n + j];
        ds[std::size_t(i) * n + j] = pij * (dp - di);
        ds_abs[std::size_t(i) * n + j] = pij * (dp_abs + di_abs);
      }
    }
    const double sc = s.scale;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const double pij = p[std::size_t(i) * n + j], dsij = ds[std::size_t(i) * n + j],
                     dsa = ds_abs[std::size_t(i) * n + j];
        if (pij == 0) continue;
        for (int c = 0; c < d; ++c) {
          r.dv[base + j * d + c] += pij * dout[i * d + c];
          r.dv_scale[base + j * d + c] += pij * std::fabs(dout[i * d + c]);
          r.dq[base + i * d + c] += sc * dsij * k[j * d + c];
          r.dq_scale[base + i * d + c] += sc * dsa * std::fabs(k[j * d + c]);
          r.dk[base + j * d + c] += sc * dsij * q[i * d + c];
          r.dk_scale[base + j * d + c] += sc * dsa * std::fabs(q[i * d + c]);
        }
      }
  }
  return r;
}

// fp32 versions: O within 1e-5 of sum_j P_ij |V_jk| (the size of what was summed:
// O itself may cancel to near 0), L within 1e-5 of 1 + |max| + log(sum). The
// kernels' S equals the reference's before the scale (exact products, see
// inputs()); what differs is expf (the H200's MUFU sequence, a couple of ulps, not
// the correctly rounded value), the rounding of s - max (|s - max| < 16, an ulp of
// that is 1e-6 in p's exponent) and the order and rounding of the sums over up to
// N terms in float (each 6e-8 relative, random in sign). At the sizes the tests use
// the worst error seen is under a tenth of the bound (the check prints how close).
inline Check check_forward(const Params& p, const Outputs& out) {
  const Shape s = shape(p);
  const Reference r = reference(s, inputs(s), false);
  Check c = compare_scaled(out.at("o").data, r.o, r.o_scale, 1e-5, 1e-7, "O");
  for (const Buffer& b : out.buffers)
    if (b.name == "l" && c.ok) {
      Check l = compare_scaled(b.data, r.l, r.l_scale, 1e-5, 0, "L (logsumexp)");
      l.detail = c.detail + "; " + l.detail;
      return l;
    }
  return c;
}

// The wmma version: Q, K and V are fp16 (exactly the fp32 inputs, see inputs()),
// S = Q K^T is exact on the tensor cores too (the MMA keeps 25 bits below the
// largest exponent and these sums need fewer), and the row sums are in fp32 from
// the unrounded p. The one real loss is P rounded to fp16 before P V: 2^-11
// relative per element, so O may move by 2^-11 * sum_j P_ij |V_jk|: rtol 1e-3 is
// twice that. P below 2^-14 is subnormal in fp16 (absolute error up to 2^-25, each
// of N terms, |V| <= 1): atol N * 2^-25. L comes from fp32 sums, as above.
inline Check check_forward_fp16(const Params& p, const Outputs& out) {
  const Shape s = shape(p);
  Inputs in = inputs(s);
  for (std::vector<float>* x : {&in.q, &in.k, &in.v})
    for (float& e : *x) e = __half2float(__float2half(e));  // what the kernel is given
  const Reference r = reference(s, in, false);
  Check c = compare_scaled(out.at("o").data, r.o, r.o_scale, 1e-3, s.n * std::ldexp(1.0, -25), "O (P in fp16)");
  if (!c.ok) return c;
  Check l = compare_scaled(out.at("l").data, r.l, r.l_scale, 1e-5, 0, "L (logsumexp)");
  l.detail = c.detail + "; " + l.detail;
  return l;
}

// The backward: each gradient within 1e-5 of the magnitudes it is summed from
// (dV: sum_i P_ij |dO_ik|; dQ and dK: scale * sum |dS| |K| or |Q|, with |dS|
// bounded by P * (sum |dO V| + sum |dO O|), the terms of dP and D before they
// cancel). On top of the forward's roundings: P recomputed as exp(s - L) from the
// float L (an ulp of |L| < 16 is 1e-6 in the exponent), dP and D as float dot
// products over d, and the sums over N keys or queries in float.
inline Check check_backward(const Params& p, const Outputs& out) {
  const Shape s = shape(p);
  const Reference r = reference(s, inputs(s), true);
  Check v = compare_scaled(out.at("dv").data, r.dv, r.dv_scale, 1e-5, 1e-7, "dV");
  Check k = compare_scaled(out.at("dk").data, r.dk, r.dk_scale, 1e-5, 1e-7, "dK");
  Check q = compare_scaled(out.at("dq").data, r.dq, r.dq_scale, 1e-5, 1e-7, "dQ");
  Check all = !v.ok ? v : !k.ok ? k : q;
  all.detail = v.detail + "; " + k.detail + "; " + q.detail;
  all.max_abs_err = std::max({v.max_abs_err, k.max_abs_err, q.max_abs_err});
  return all;
}
#else
inline constexpr std::nullptr_t check_forward = nullptr;  // the reference runs in the simulator build only
inline constexpr std::nullptr_t check_forward_fp16 = nullptr;
inline constexpr std::nullptr_t check_backward = nullptr;
#endif

}  // namespace attention
