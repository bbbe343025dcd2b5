// Decode attention over an fp8 KV cache (kernels/decode_common.cuh): decode_contiguous
// with one variable changed, the cache's element type. K and V are stored as
// __nv_fp8_e4m3, 1 byte per element instead of fp32's 4, with one fp32 scale per KV
// head for K and one for V (vLLM's per-attention-head scheme, k_scale and v_scale of
// [kv_heads]; its per-tensor scheme is the case of equal scales). The scales are
// static: a cache is written one token at a time, so its scale must be fixed before the
// values it will hold are seen (a per-sequence or per-token amax would need either a
// re-quantization or a scale load per row); here they are calibrated as amax / 448 over
// the batch's cached tokens of each KV head, and the conversion saturates.
//
// The kernel is decode_contiguous's, element for element: one warp per (sequence,
// query head), lane l holds elements l, l + 32, ...; each lane loads one byte of a row
// and dequantizes it on load, k = float(e4m3) * k_scale (<cuda_fp8.h>: a cvt to half,
// a half -> float, an FMUL), then the same dot product, shuffle sum and online softmax
// in the same order. A row of dim bytes is dim / 32 warp loads of 32 bytes, 1 sector
// each, where fp32 needs 4: the same requests, a quarter of the K/V sectors. Loading
// the bytes in fp32's lane order keeps the sum order (the outputs are the fp32
// kernel's on the dequantized cache); a production kernel would widen 4 or 8 bytes per
// lane and regroup the sums.
//
// Host side: the quantization (nearest even, saturating, <cuda_fp8.h>'s constructor,
// bit-exact between simtlab and CUDA 13), the driver and the CPU reference (in double
// on the dequantized K and V; the detail also reports the loss against the
// unquantized fp32 cache).
#include "kernels/decode_common.cuh"
#include "kernels/harness.hpp"
#include <cuda_fp8.h>
#include <cuda_runtime.h>

// kPerLane = dim / 32, a compile-time count so that q, the accumulator and each
// token's dequantized rows stay in registers (decode_common.cuh's attend_fixed says why).
template <int kPerLane>
__global__ void decode_fp8_kv(const float* q, const __nv_fp8_e4m3* k, const __nv_fp8_e4m3* v, const float* k_scale,
                              const float* v_scale, const int* lens, float* o, int batch, int seq, int heads,
                              int kv_heads, int dim, float scale) {
  const int pair = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (pair >= batch * heads) return;  // whole warps leave together
  const int b = pair / heads, h = pair % heads, kvh = h / (heads / kv_heads);
  const int lane = threadIdx.x % 32, len = lens[b];
  const float ks = k_scale[kvh], vs = v_scale[kvh];  // every lane the same word: 1 sector each
  const size_t base = (size_t(b) * kv_heads + kvh) * seq * dim;
  float qr[kPerLane], acc[kPerLane], m = -INFINITY, l = 0.0f;
#pragma unroll
  for (int i = 0; i < kPerLane; ++i) qr[i] = q[size_t(pair) * dim + lane + 32 * i], acc[i] = 0.0f;
  for (int t = 0; t < len; ++t) {
    const size_t row = base + size_t(t) * dim;
    float kk[kPerLane], vv[kPerLane];
#pragma unroll
    for (int i = 0; i < kPerLane; ++i) kk[i] = static_cast<float>(k[row + lane + 32 * i]) * ks;
#pragma unroll
    for (int i = 0; i < kPerLane; ++i) vv[i] = static_cast<float>(v[row + lane + 32 * i]) * vs;
    float partial = 0.0f;
#pragma unroll
    for (int i = 0; i < kPerLane; ++i) partial += qr[i] * kk[i];
    decode::online_step<kPerLane>(decode::warp_sum(partial) * scale, m, l, acc, vv);
  }
#pragma unroll
  for (int i = 0; i < kPerLane; ++i) o[size_t(pair) * dim + lane + 32 * i] = acc[i] / l;
}

namespace {
using namespace simt::kernels;

// The fp8 cache, [batch][kv_heads][seq][dim] as decode::Inputs' k and v: element x of
// KV head h becomes e4m3(x / scale[h]), scale[h] = amax over the batch's cached tokens
// (t < len[b]) of head h / 448 (1 if all zero). Slots past a sequence's end are 0.
// k_deq, v_deq: float(e4m3) * scale in float, the values the kernel computes.
struct Fp8Cache {
  std::vector<__nv_fp8_e4m3> k, v;
  std::vector<float> k_scale, v_scale, k_deq, v_deq;
};

void quantize(const decode::Shape& s, const decode::Inputs& in, const std::vector<float>& x,
              std::vector<__nv_fp8_e4m3>& x8, std::vector<float>& sc, std::vector<float>& deq) {
  x8.assign(x.size(), __nv_fp8_e4m3(0.0f));
  deq.assign(x.size(), 0.0f);
  sc.assign(s.kv_heads, 1.0f);
  auto at = [&](int b, int h, int t) { return ((std::size_t(b) * s.kv_heads + h) * s.seq + t) * s.dim; };
  for (int h = 0; h < s.kv_heads; ++h) {
    float amax = 0.0f;
    for (int b = 0; b < s.batch; ++b)
      for (int t = 0; t < in.lens[b]; ++t)
        for (int d = 0; d < s.dim; ++d) amax = std::max(amax, std::fabs(x[at(b, h, t) + d]));
    if (amax > 0.0f) sc[h] = amax / 448.0f;
    for (int b = 0; b < s.batch; ++b)
      for (int t = 0; t < in.lens[b]; ++t)
        for (int d = 0; d < s.dim; ++d) {
          const std::size_t i = at(b, h, t) + d;
          x8[i] = __nv_fp8_e4m3(x[i] / sc[h]);
          deq[i] = static_cast<float>(x8[i]) * sc[h];
        }
  }
}

Fp8Cache fp8_cache(const decode::Shape& s, const decode::Inputs& in) {
  Fp8Cache c;
  quantize(s, in, in.k, c.k, c.k_scale, c.k_deq);
  quantize(s, in, in.v, c.v, c.v_scale, c.v_deq);
  return c;
}

Outputs run(const Params& p) {
  const decode::Shape s = decode::shape(p);
  const decode::Inputs in = decode::inputs(s);
  const Fp8Cache c = fp8_cache(s, in);
  float* q = decode::upload(in.q);
  __nv_fp8_e4m3* k = decode::upload(c.k);
  __nv_fp8_e4m3* v = decode::upload(c.v);
  float* ks = decode::upload(c.k_scale);
  float* vs = decode::upload(c.v_scale);
  int* lens = decode::upload(in.lens);
  const std::size_t out_size = std::size_t(s.batch) * s.heads * s.dim;
  float* o;
  cudaMalloc(&o, out_size * sizeof(float));
  const int warps = s.batch * s.heads;
  const dim3 grid((warps + decode::kWarpsPerBlock - 1) / decode::kWarpsPerBlock), block(32 * decode::kWarpsPerBlock);
  const float sc = 1.0f / std::sqrt(float(s.dim));
  const int b = s.batch, n = s.seq, h = s.heads, kvh = s.kv_heads, d = s.dim;
  switch (d / 32) {  // kPerLane as a compile-time count
    case 1: decode_fp8_kv<1><<<grid, block>>>(q, k, v, ks, vs, lens, o, b, n, h, kvh, d, sc); break;
    case 2: decode_fp8_kv<2><<<grid, block>>>(q, k, v, ks, vs, lens, o, b, n, h, kvh, d, sc); break;
    case 3: decode_fp8_kv<3><<<grid, block>>>(q, k, v, ks, vs, lens, o, b, n, h, kvh, d, sc); break;
    default: decode_fp8_kv<decode::kMaxPerLane><<<grid, block>>>(q, k, v, ks, vs, lens, o, b, n, h, kvh, d, sc);
  }
  std::vector<float> out(out_size);
  cudaMemcpy(out.data(), o, out_size * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(o);
  cudaFree(q);
  cudaFree(k);
  cudaFree(v);
  cudaFree(ks);
  cudaFree(vs);
  cudaFree(lens);
  return {{{"o", out}}};
}

#if !defined(__CUDACC__)
// Attention in double over the given K and V ([batch][kv_heads][seq][dim]): o, and per
// output A = sum_t w_t |v_t| / sum_t w_t; per (sequence, head) S = max_t scale sum_d |q_d k_td|.
struct Reference {
  std::vector<double> o, a, s;
};
Reference reference(const decode::Shape& s, const decode::Inputs& in, const std::vector<float>& kc,
                    const std::vector<float>& vc) {
  const float scale = 1.0f / std::sqrt(float(s.dim));
  Reference r{std::vector<double>(std::size_t(s.batch) * s.heads * s.dim), {}, {}};
  r.a.resize(r.o.size());
  for (int b = 0; b < s.batch; ++b)
    for (int h = 0; h < s.heads; ++h) {
      const int len = in.lens[b], kvh = h / s.group();
      const float* q = &in.q[(std::size_t(b) * s.heads + h) * s.dim];
      const float* k = &kc[(std::size_t(b) * s.kv_heads + kvh) * s.seq * s.dim];
      const float* v = &vc[(std::size_t(b) * s.kv_heads + kvh) * s.seq * s.dim];
      std::vector<double> w(len);
      double top = -INFINITY, sum = 0, smax = 0;
      for (int t = 0; t < len; ++t) {
        double dot = 0, dot_abs = 0;
        for (int d = 0; d < s.dim; ++d) {
          dot += double(q[d]) * k[std::size_t(t) * s.dim + d];
          dot_abs += std::fabs(double(q[d]) * k[std::size_t(t) * s.dim + d]);
        }
        w[t] = dot * scale;
        top = std::max(top, w[t]);
        smax = std::max(smax, dot_abs * scale);
      }
      r.s.push_back(smax);
      for (int t = 0; t < len; ++t) sum += (w[t] = std::exp(w[t] - top));
      for (int d = 0; d < s.dim; ++d) {
        double acc = 0, acc_abs = 0;
        for (int t = 0; t < len; ++t) {
          acc += w[t] * v[std::size_t(t) * s.dim + d];
          acc_abs += w[t] * std::fabs(v[std::size_t(t) * s.dim + d]);
        }
        const std::size_t at = (std::size_t(b) * s.heads + h) * s.dim + d;
        r.o[at] = acc / sum;
        r.a[at] = acc_abs / sum;
      }
    }
  return r;
}

// Checked against the same math in double on the dequantized K and V (the kernel's
// float values exactly). decode::check's bound, (3 len + 8) u (A + |o|), assumes exact
// scores; here q . k is rounded: per_lane products and sums in a lane, 5 shuffle adds
// and the scaling, at most (dim / 32 + 7) u S per score (Higham's gamma_n), S the
// largest scale sum_d |q_d k_d| of the pair. A weight exp(s_t - m) then carries that
// error twice (s_t and the max) and the rounding of the subtractions, u |s_t - m| for
// its own and u (m_final - m_first) along the chain of rescalings, 4 u S together:
// exp(e) - 1 <= 1.01 e relative, which moves o by at most that times (A + |o|). So
// o[d] is checked within ((3 len + 8) + 1.01 (2 (dim / 32 + 7) + 4) S) u (A + |o|).
// The detail also reports max |o - o_fp32| against the unquantized cache.
Check check(const Params& p, const Outputs& got) {
  const decode::Shape s = decode::shape(p);
  const decode::Inputs in = decode::inputs(s);
  const Fp8Cache c = fp8_cache(s, in);
  const Reference r = reference(s, in, c.k_deq, c.v_deq), f = reference(s, in, in.k, in.v);
  const std::vector<float>& out = got.at("o").data;
  Check ck;
  if (out.size() != r.o.size()) {
    ck.detail = "o: size " + std::to_string(out.size()) + " != expected " + std::to_string(r.o.size());
    return ck;
  }
  const double u = std::ldexp(1.0, -24);
  ck.ok = true;
  std::string first;
  double loss = 0, top = 0;
  for (std::size_t i = 0; i < r.o.size(); ++i) {
    const std::size_t pair = i / s.dim;
    const int len = in.lens[pair / s.heads];
    const double bound = ((3.0 * len + 8) + 1.01 * (2.0 * (s.dim / 32 + 7) + 4) * r.s[pair]) * u * (r.a[i] + std::fabs(r.o[i]));
    double e = std::fabs(double(out[i]) - r.o[i]);
    if (std::isnan(e)) e = INFINITY;
    ck.max_abs_err = std::max(ck.max_abs_err, e);
    if (!(e <= bound) && ck.ok)
      ck.ok = false, first = "; index " + std::to_string(i) + ": got " + decode::num(out[i]) + ", want " + decode::num(r.o[i]);
    loss = std::max(loss, std::fabs(double(out[i]) - f.o[i]));
    top = std::max(top, std::fabs(f.o[i]));
  }
  ck.detail = "o = softmax(q K^T / sqrt(dim)) V on the dequantized fp8 cache: " + std::to_string(r.o.size()) +
              " values" + (ck.ok ? "" : " NOT") + " within the rounding bound, max |error| " +
              decode::num(ck.max_abs_err) + first + "; quantization loss vs the fp32 cache: max |o - o_fp32| " +
              decode::num(loss) + " = " + decode::num(top > 0 ? loss / top : 0) + " of max |o_fp32|";
  return ck;
}
#else
constexpr std::nullptr_t check = nullptr;  // the reference runs in the simulator build only
#endif

Registration reg({"decode_fp8_kv",
                  "decode attention, fp8 E4M3 KV cache (fp32 scale per KV head) dequantized on load: "
                  "decode_contiguous with a quarter of the K/V bytes",
                  decode::params(), run, check});
}  // namespace
