// GEMV family, the decode step of an LLM layer: y = W x for a weight matrix W of
// rows x cols (out_features x in_features, row-major) and one token's activation x
// (cols), y in fp32. At batch 1 every weight is read once and used once (2 FLOPs per
// weight), so the time is the bytes of W: storing W in fewer bits is the speedup.
//
// Versions, each the same kernel shape — a block of 8 warps owns 16 rows, x is staged
// in shared memory once per block, a warp walks a row (coalesced, 128 bytes of W per
// warp load), accumulates in fp32 (int32 for int8) in a fixed order and reduces by
// __shfl_xor_sync — with W in fewer bytes:
//   gemv_fp16.cu  fp16 W and x, half2 loads: 2 bytes per weight, the baseline
//   gemv_int8.cu  int8 W with an fp32 scale per output row (channel), x quantized to
//                 int8 with one scale per token by a first, one-block launch; __dp4a
//                 multiplies 4 packed bytes and adds them in one instruction: 1 byte
//                 per weight, integer math exact
//   gemv_int4.cu  int4 W, GPTQ-style groups of 128 along k: 8 nibbles per uint32, an
//                 fp16 scale and zero point per group (one half2); x fp16:
//                 0.5 byte per weight + 4 bytes per 128 weights
//   gemv_fp8.cu   fp8 E4M3 W with an fp32 scale per row, dequantized by <cuda_fp8.h>
//                 (4 weights per 4-byte load); x fp16: 1 byte per weight
//
// Run:  simt run gemv_int4 --rows 2048 --cols 2048
// Defaults 2048 x 2048 (a 2048-wide layer, 4 Mi weights): seconds on the simulator.
// Inputs and the weights' quantization: on the host, deterministic, identical in the
// simulator's build and nvcc's (float arithmetic only; fp8 through <cuda_fp8.h>,
// bit-exact in both, docs/validation/fp8-conversions.md). int8's x is quantized on the
// device by the same float operations as to_int8's (so the reference can use those). Each output's summation order is fixed
// by the code, so the GPU's bits can equal the simulator's.
// CPU reference: the dequantized product in double, below, and the error each format
// loses against the unquantized fp32 problem (in the check's detail).
#pragma once
#include "kernels/harness.hpp"
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace gemv {

using namespace simt::kernels;

constexpr int kGroup = 128;                          // int4: weights per scale and zero point
constexpr int kWarps = 8;                            // per block
constexpr int kThreads = 32 * kWarps;
constexpr int kRowsPerBlock = 16;                    // 2 rows per warp: x staged once per 16 rows
constexpr int kMaxCols = 16384;                      // x in shared memory: 32 KiB as fp16

inline std::vector<Param> params() {
  return {{"rows", "2048", "rows of W: output features, one y each"},
          {"cols", "2048", "columns of W: input features, the length of x (at most 16384)"}};
}

struct Shape {
  int rows, cols;
};
inline Shape shape(const Params& p) {
  const Shape s{int(p.integer("rows")), int(p.integer("cols", 1, kMaxCols))};
  return s;
}
inline int round_up(int v, int m) { return (v + m - 1) / m * m; }
inline int blocks(int rows) { return (rows + kRowsPerBlock - 1) / kRowsPerBlock; }

// The problem in fp32: W[r][k] = (a + b / 64) * gain(r), a and b multiples of 1/64 in
// [-1, 1), gain 1/4, 1/2, 3/4 or 1 by row (rows of different ranges, as real layers
// have); x multiples of 1/64 in [-1, 1) (exact in fp16).
inline std::vector<float> weights(Shape s) {
  const std::size_t n = std::size_t(s.rows) * s.cols;
  std::vector<float> w = test_values(n, 1);
  const std::vector<float> b = test_values(n, 3);
  for (std::size_t i = 0; i < n; ++i) w[i] = (w[i] + b[i] / 64.0f) * (0.25f * float(1 + (i / s.cols) % 4));
  return w;
}
inline std::vector<float> activation(Shape s) { return test_values(s.cols, 2); }

// Per-row (or per-token) symmetric scale for a signed format of largest value `top`:
// amax / top, 1 for an all-zero row.
inline float symmetric_scale(const float* v, int n, float top) {
  float amax = 0.0f;
  for (int i = 0; i < n; ++i) amax = std::max(amax, std::fabs(v[i]));
  return amax > 0.0f ? amax / top : 1.0f;
}
inline int clamp_int(long v, int lo, int hi) { return int(std::min<long>(std::max<long>(v, lo), hi)); }

// fp16: W and x as half, rows padded to an even length (zeros) for half2 loads.
struct Fp16 {
  int ld;  // halves per row
  std::vector<half> w, x;
};
inline Fp16 to_fp16(Shape s) {
  const std::vector<float> w = weights(s), x = activation(s);
  Fp16 q{round_up(s.cols, 2), {}, {}};
  q.w.assign(std::size_t(s.rows) * q.ld, __float2half(0.0f));
  q.x.assign(q.ld, __float2half(0.0f));
  for (int r = 0; r < s.rows; ++r)
    for (int k = 0; k < s.cols; ++k) q.w[std::size_t(r) * q.ld + k] = __float2half(w[std::size_t(r) * s.cols + k]);
  for (int k = 0; k < s.cols; ++k) q.x[k] = __float2half(x[k]);
  return q;
}

// int8: W[r][k] = w_scale[r] * q, x[k] = x_scale * xq, q and xq in [-127, 127]
// (round to nearest even), rows padded to a multiple of 4 (zeros) for 4-byte loads.
struct Int8 {
  int ld;  // bytes per row
  std::vector<std::int8_t> w, x;
  std::vector<float> w_scale;
  float x_scale;
};
inline Int8 to_int8(Shape s) {
  const std::vector<float> w = weights(s), x = activation(s);
  Int8 q{round_up(s.cols, 4), {}, {}, std::vector<float>(s.rows), 0.0f};
  q.w.assign(std::size_t(s.rows) * q.ld, 0);
  q.x.assign(q.ld, 0);
  for (int r = 0; r < s.rows; ++r) {
    const float* wr = &w[std::size_t(r) * s.cols];
    const float sc = q.w_scale[r] = symmetric_scale(wr, s.cols, 127.0f);
    for (int k = 0; k < s.cols; ++k) q.w[std::size_t(r) * q.ld + k] = std::int8_t(clamp_int(std::lrint(wr[k] / sc), -127, 127));
  }
  q.x_scale = symmetric_scale(x.data(), s.cols, 127.0f);
  for (int k = 0; k < s.cols; ++k) q.x[k] = std::int8_t(clamp_int(std::lrint(x[k] / q.x_scale), -127, 127));
  return q;
}

// int4 (GPTQ-style, asymmetric): per row and group of 128 along k, lo = min(0, min w),
// hi = max(0, max w), scale = (hi - lo) / 15 rounded to fp16, zero = round(-lo /
// scale) in [0, 15], q = clamp(round(w / scale) + zero, 0, 15); W = scale * (q - zero).
// Nibble j of word i of a row is weight 8 i + j; scale and zero are one half2 per
// group (zero as an fp16 integer). Rows padded to a multiple of 8 (q = zero: W = 0).
struct Int4 {
  int words, groups;  // per row
  std::vector<std::uint32_t> w;
  std::vector<half2> scale_zero;  // rows x groups
  std::vector<half> x;            // 8 * words, zero padded
};
inline Int4 to_int4(Shape s) {
  const std::vector<float> w = weights(s), x = activation(s);
  Int4 q{(s.cols + 7) / 8, (s.cols + kGroup - 1) / kGroup, {}, {}, {}};
  q.w.assign(std::size_t(s.rows) * q.words, 0u);
  q.scale_zero.resize(std::size_t(s.rows) * q.groups);
  q.x.assign(std::size_t(q.words) * 8, __float2half(0.0f));
  for (int r = 0; r < s.rows; ++r)
    for (int g = 0; g < q.groups; ++g) {
      const int k0 = g * kGroup, k1 = std::min(s.cols, k0 + kGroup);
      const float* wr = &w[std::size_t(r) * s.cols];
      float lo = 0.0f, hi = 0.0f;
      for (int k = k0; k < k1; ++k) lo = std::min(lo, wr[k]), hi = std::max(hi, wr[k]);
      float sc = __half2float(__float2half((hi - lo) / 15.0f));
      if (sc == 0.0f) sc = 1.0f;
      const int zero = clamp_int(std::lrint(-lo / sc), 0, 15);
      q.scale_zero[std::size_t(r) * q.groups + g] = __floats2half2_rn(sc, float(zero));
      for (int k = k0; k < q.words * 8 && k < k0 + kGroup; ++k) {
        const int v = k < k1 ? clamp_int(std::lrint(wr[k] / sc) + zero, 0, 15) : zero;
        q.w[std::size_t(r) * q.words + k / 8] |= std::uint32_t(v) << (4 * (k % 8));
      }
    }
  for (int k = 0; k < s.cols; ++k) q.x[k] = __float2half(x[k]);
  return q;
}

// fp8: W[r][k] = w_scale[r] * e4m3, scale amax / 448 per row, the value rounded by
// __nv_fp8_e4m3's constructor (nearest even, saturating); rows padded to a multiple
// of 4 (zeros) for 4-byte loads; x fp16.
struct Fp8 {
  int ld;  // bytes per row
  std::vector<__nv_fp8_e4m3> w;
  std::vector<float> w_scale;
  std::vector<half> x;
};
inline Fp8 to_fp8(Shape s) {
  const std::vector<float> w = weights(s), x = activation(s);
  Fp8 q{round_up(s.cols, 4), {}, std::vector<float>(s.rows), {}};
  q.w.assign(std::size_t(s.rows) * q.ld, __nv_fp8_e4m3(0.0f));
  q.x.assign(q.ld, __float2half(0.0f));
  for (int r = 0; r < s.rows; ++r) {
    const float* wr = &w[std::size_t(r) * s.cols];
    const float sc = q.w_scale[r] = symmetric_scale(wr, s.cols, 448.0f);
    for (int k = 0; k < s.cols; ++k) q.w[std::size_t(r) * q.ld + k] = __nv_fp8_e4m3(wr[k] / sc);
  }
  for (int k = 0; k < s.cols; ++k) q.x[k] = __float2half(x[k]);
  return q;
}

// Device helpers shared by the versions.
__device__ inline float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}
__device__ inline int warp_sum(int v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

// Uploads n elements of v; the caller frees.
template <class T> T* upload(const std::vector<T>& v) {
  T* d = nullptr;
  cudaMalloc(&d, v.size() * sizeof(T));
  cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}
inline std::vector<float> download(const float* d, int n) {
  std::vector<float> h(n);
  cudaMemcpy(h.data(), d, std::size_t(n) * sizeof(float), cudaMemcpyDeviceToHost);
  return h;
}

enum class Format { Fp16, Int8, Int4, Fp8 };

#if !defined(__CUDACC__)
// The dequantized problem in double: W exactly as the kernel multiplies it (each
// format's stored values and scales) and x as the kernel reads it.
struct Dequantized {
  std::vector<double> w, x;  // rows x cols, cols
};
inline Dequantized dequantized(Format f, Shape s) {
  Dequantized d{std::vector<double>(std::size_t(s.rows) * s.cols), std::vector<double>(s.cols)};
  auto at = [&](int r, int k) -> double& { return d.w[std::size_t(r) * s.cols + k]; };
  if (f == Format::Fp16) {
    const Fp16 q = to_fp16(s);
    for (int r = 0; r < s.rows; ++r)
      for (int k = 0; k < s.cols; ++k) at(r, k) = __half2float(q.w[std::size_t(r) * q.ld + k]);
    for (int k = 0; k < s.cols; ++k) d.x[k] = __half2float(q.x[k]);
  } else if (f == Format::Int8) {
    const Int8 q = to_int8(s);
    for (int r = 0; r < s.rows; ++r)
      for (int k = 0; k < s.cols; ++k) at(r, k) = double(q.w_scale[r]) * q.w[std::size_t(r) * q.ld + k];
    for (int k = 0; k < s.cols; ++k) d.x[k] = double(q.x_scale) * q.x[k];
  } else if (f == Format::Int4) {
    const Int4 q = to_int4(s);
    for (int r = 0; r < s.rows; ++r)
      for (int k = 0; k < s.cols; ++k) {
        const half2 sz = q.scale_zero[std::size_t(r) * q.groups + k / kGroup];
        const int v = int(q.w[std::size_t(r) * q.words + k / 8] >> (4 * (k % 8)) & 15);
        at(r, k) = double(__low2float(sz)) * (v - double(__high2float(sz)));
      }
    for (int k = 0; k < s.cols; ++k) d.x[k] = __half2float(q.x[k]);
  } else {
    const Fp8 q = to_fp8(s);
    for (int r = 0; r < s.rows; ++r)
      for (int k = 0; k < s.cols; ++k) at(r, k) = double(q.w_scale[r]) * double(float(q.w[std::size_t(r) * q.ld + k]));
    for (int k = 0; k < s.cols; ++k) d.x[k] = __half2float(q.x[k]);
  }
  return d;
}

inline std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// y against the dequantized product in double. Tolerance per row: (cols / 32 + 16)
// * 2^-24 * sum_k |W[r][k] x[k]|. Every version adds its terms in float, one rounding
// per term (an FMA, or exact int32 sums for int8), in a chain of at most cols / 32
// terms per lane, then 5 butterfly adds and up to 3 scalings: the classic bound of
// recursive summation, (n + 1) u sum |t| with n the rounded operations in a path,
// u = 2^-24, holds with room (the dequantized products are exact in float: fp16 x
// fp16, fp8 x fp16, fp16 scale x a 5-bit integer; int8's integer sum is exact).
// The detail also reports the quantization loss: max |y - y_fp32| over rows against
// the product of the unquantized fp32 W and x, in absolute terms and relative to
// max |y_fp32|.
template <Format F> Check check(const Params& p, const Outputs& out) {
  const Shape s = shape(p);
  const std::vector<float>& y = out.at("y").data;
  Check c;
  if (int(y.size()) != s.rows) {
    c.detail = "y: size " + std::to_string(y.size()) + " != rows " + std::to_string(s.rows);
    return c;
  }
  const Dequantized d = dequantized(F, s);
  const std::vector<float> w32 = weights(s), x32 = activation(s);
  const double u = std::ldexp(1.0, -24);
  c.ok = true;
  double loss = 0, top = 0, worst = -1;
  int worst_row = 0;
  for (int r = 0; r < s.rows; ++r) {
    double want = 0, mag = 0, exact = 0;
    for (int k = 0; k < s.cols; ++k) {
      const double t = d.w[std::size_t(r) * s.cols + k] * d.x[k];
      want += t, mag += std::fabs(t);
      exact += double(w32[std::size_t(r) * s.cols + k]) * x32[k];
    }
    const double bound = (s.cols / 32.0 + 16) * u * mag, e = std::fabs(y[r] - want);
    if (!(e <= bound)) c.ok = false;
    if (std::isnan(e) || e - bound > worst) worst = std::isnan(e) ? INFINITY : e - bound, worst_row = r, c.tolerance = bound;
    c.max_abs_err = std::max(c.max_abs_err, std::isnan(e) ? INFINITY : e);
    loss = std::max(loss, std::fabs(y[r] - exact));
    top = std::max(top, std::fabs(exact));
  }
  c.detail = "y = W x: " + std::to_string(s.rows) + " rows within (cols/32 + 16) 2^-24 sum|w x| of the dequantized " +
             "product" + (c.ok ? "" : " FAILED") + ", max |error| " + num(c.max_abs_err) + " (row " +
             std::to_string(worst_row) + ": got " + num(y[worst_row]) + ", bound " + num(c.tolerance) +
             "); quantization loss vs the fp32 product: max |y - y_fp32| " + num(loss) + " = " +
             num(top > 0 ? loss / top : 0) + " of max |y_fp32|";
  return c;
}
template <Format F> inline const auto checker = check<F>;
#else
template <Format F> inline constexpr std::nullptr_t checker = nullptr;  // the reference runs in the simulator build only
#endif

}  // namespace gemv
