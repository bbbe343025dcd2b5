// Fused elementwise family: the epilogues around a transformer's matmuls, run as
// separate kernels (one launch per operation, each intermediate written to global
// memory and read back by the next) and fused (one launch, the intermediates never
// leave registers). Two problems, each a pair of versions:
//
// bias + GELU (namespace fused_gelu), after the MLP's first matmul (GPT-2: 4 x 768 =
// 3072 columns): y = gelu(x + bias[col]), GPT-2's tanh approximation
//   gelu(v) = 0.5 v (1 + tanh(sqrt(2 / pi) (v + 0.044715 v^3)))
//   bias_gelu_separate.cu  2 launches: t = x + bias, then y = gelu(t): t is written to
//                          global memory and read back (2 x 4 bytes per element more)
//   bias_gelu_fused.cu     1 launch: y = gelu(x + bias): x and bias in, y out, once
//
// bias + dropout + residual (namespace fused_dropout), after an attention or MLP
// output projection (768 columns): out = residual + dropout(x + bias[col]), dropout
// keeping a value with probability 1 - p and scaling it by 1 / (1 - p)
//   bias_dropout_residual_separate.cu  3 launches: t = x + bias; t = dropout(t);
//                                      out = residual + t: two intermediates written
//                                      and read back (4 x 4 bytes per element more)
//   bias_dropout_residual_fused.cu     1 launch: x, bias and residual in, out out
//
// Every version has each thread take 4 consecutive elements with float4 loads and
// stores (the last thread fewer, scalar; all scalar when cols % 4 != 0, where a
// row's 4 elements may straddle two rows' biases). The dropout mask is cuRAND's Philox4_32_10:
// thread k calls curand_init(seed, k, 0) and one curand_uniform4 gives its 4 elements'
// uniforms, so the separate and fused versions draw the same mask and give the same
// bits. The mask is not stored: the backward pass draws it again from (seed, k), as
// low-memory dropout does (Triton's tutorial 04), at the price of the Philox rounds.
// Both versions of a pair do the same float operations in the same order: their
// outputs are bit-identical (a test checks it).
//
// Run:  simt run bias_gelu_fused --rows 512 --cols 3072
//       simt run bias_dropout_residual_fused --rows 1024 --cols 768 --p 0.1 --seed 1234
// CPU reference: in double, below (with a host Philox4x32-10 for the mask). nvcc
// builds the same files unchanged.
#pragma once
#include "kernels/harness.hpp"
#include <cuda_runtime.h>
#include <curand_kernel.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace fused {

using namespace simt::kernels;

constexpr int kThreads = 256;  // per block; each thread takes 4 elements

inline int blocks_for(std::size_t n) { return int(((n + 3) / 4 + kThreads - 1) / kThreads); }

// Each thread's 4 elements base..base+3 (base a multiple of 4) of a flat array of n.
// Each kernel is written `if (vec4(base, n, cols)) float4 path; else scalar loop`: the
// float4 path moves the 4 elements of x, out, ... and their 4 biases (one row, an
// aligned column when cols % 4 == 0) in one access each (base is 16-byte aligned:
// cudaMalloc gives 256); the scalar loop takes the last < 4 elements, and every
// element when cols % 4 != 0. The two paths are kept apart on purpose: when both
// filled one float4 (a bias helper returning either a float4 load or 4 scalar loads),
// the CPU compiler sank the loads of both branches into one block, and simtlab, which
// counts the accesses of the compiled code, counted the float4 path's bias twice.
__device__ inline bool vec4(size_t base, size_t n, int cols) { return base + 4 <= n && cols % 4 == 0; }
__device__ inline float4 load4(const float* p, size_t base) { return *reinterpret_cast<const float4*>(p + base); }
__device__ inline void store4(float* p, size_t base, float4 v) { *reinterpret_cast<float4*>(p + base) = v; }

#if !defined(__CUDACC__)
inline std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// |got - want| <= rtol * scale everywhere, scale the size of the terms that made want.
inline Check compare_scaled(const std::vector<float>& got, const std::vector<double>& want,
                            const std::vector<double>& scale, double rtol, const std::string& what) {
  Check c;
  c.tolerance = rtol;
  if (got.size() != want.size()) {
    c.detail = what + ": size " + std::to_string(got.size()) + " != expected " + std::to_string(want.size());
    return c;
  }
  c.ok = true;
  std::string first;
  for (std::size_t i = 0; i < got.size(); ++i) {
    double e = std::fabs(double(got[i]) - want[i]);
    if (std::isnan(e)) e = INFINITY;
    c.max_abs_err = std::max(c.max_abs_err, e);
    if (e > rtol * scale[i] && c.ok)
      c.ok = false, first = "; index " + std::to_string(i) + ": got " + num(got[i]) + ", want " + num(want[i]);
  }
  c.detail = what + ": " + std::to_string(got.size()) + " values" + (c.ok ? "" : " NOT") + " within " + num(rtol) +
             " * scale, max |error| " + num(c.max_abs_err) + first;
  return c;
}
#endif

}  // namespace fused

// ---- bias + GELU ----
namespace fused_gelu {

using namespace simt::kernels;

inline std::vector<Param> params() {
  return {{"rows", "512", "rows (tokens)"},
          {"cols", "3072", "columns (GPT-2's MLP width 4 x 768 by default; any positive number)"}};
}

constexpr float kGeluScale = 0.7978845608f;  // sqrt(2 / pi)
constexpr float kGeluCubic = 0.044715f;

// GPT-2's tanh approximation of GELU, in this order in every version.
__device__ inline float gelu(float v) {
  const float cube = kGeluCubic * v * v * v;
  return 0.5f * v * (1.0f + tanhf(kGeluScale * (v + cube)));
}

// x: 4 * test_values, multiples of 1/16 in [-4, 4) (GELU's curved part and both
// tails); bias: test_values, multiples of 1/64 in [-1, 1). x + bias is exact in float.
struct Inputs {
  std::vector<float> x, bias;
};
inline Inputs inputs(int rows, int cols) {
  Inputs in{test_values(std::size_t(rows) * cols, 1), test_values(cols, 2)};
  for (float& v : in.x) v *= 4.0f;
  return in;
}

// launch(d_x, d_bias, d_y, rows, cols) runs one version; returns y.
template <class Launch>
Outputs run(const Params& p, Launch launch) {
  const int rows = int(p.integer("rows")), cols = int(p.integer("cols"));
  const std::size_t size = std::size_t(rows) * cols;
  const Inputs in = inputs(rows, cols);
  float *d_x, *d_bias, *d_y;
  cudaMalloc(&d_x, size * sizeof(float));
  cudaMalloc(&d_bias, cols * sizeof(float));
  cudaMalloc(&d_y, size * sizeof(float));
  cudaMemcpy(d_x, in.x.data(), size * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_bias, in.bias.data(), cols * sizeof(float), cudaMemcpyHostToDevice);
  launch(d_x, d_bias, d_y, rows, cols);
  std::vector<float> y(size);
  cudaMemcpy(y.data(), d_y, size * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_bias);
  cudaFree(d_y);
  return {{{"y", y}}};
}

#if !defined(__CUDACC__)
// The reference in double on v = x + bias (exact). Tolerance 64 u (u = 2^-24, about
// 4e-6) relative to 0.5 |v| (1 + |tanh z| + |z|), z the tanh's argument: tanhf is the
// H200's sequence, within a few ulps of 1 in absolute terms (the 1 + tanh z below 0
// cancels, so the bound is on the terms, not on y); the cube and z take 5 roundings,
// each moving tanh by at most u |z|; the last two products 2 more.
inline Check check(const Params& p, const Outputs& out) {
  const int rows = int(p.integer("rows")), cols = int(p.integer("cols"));
  const Inputs in = inputs(rows, cols);
  std::vector<double> y(in.x.size()), scale(in.x.size());
  for (std::size_t k = 0; k < in.x.size(); ++k) {
    const double v = double(in.x[k]) + in.bias[k % cols];
    const double z = std::sqrt(2.0 / M_PI) * (v + 0.044715 * v * v * v), t = std::tanh(z);
    y[k] = 0.5 * v * (1.0 + t);
    scale[k] = 0.5 * std::fabs(v) * (1.0 + std::fabs(t) + std::fabs(z)) + 1e-30;
  }
  return fused::compare_scaled(out.at("y").data, y, scale, 64 * std::ldexp(1.0, -24), "y = gelu(x + bias)");
}
#else
inline constexpr std::nullptr_t check = nullptr;  // the reference runs in the simulator build only
#endif

}  // namespace fused_gelu

// ---- bias + dropout + residual ----
namespace fused_dropout {

using namespace simt::kernels;

inline std::vector<Param> params() {
  return {{"rows", "1024", "rows (tokens)"},
          {"cols", "768", "columns (GPT-2's width 768 by default; any positive number)"},
          {"p", "0.1", "dropout probability, in [0, 1) (GPT-2 trained with 0.1)"},
          {"seed", "1234", "Philox seed (curand_init's first argument)"}};
}

// Dropout of one value: kept (and scaled) when its uniform in (0, 1] is below keep.
__device__ inline float dropout(float v, float u, float keep, float scale) { return u < keep ? v * scale : 0.0f; }

// The uniforms of thread k's 4 elements: Philox4_32_10, subsequence k.
__device__ inline float4 uniforms4(unsigned long long seed, size_t k) {
  curandStatePhilox4_32_10_t state;
  curand_init(seed, k, 0, &state);
  return curand_uniform4(&state);
}
// Component c of a float4 (the scalar tail's element c of 4).
__device__ inline float component(float4 v, int c) { return c == 0 ? v.x : c == 1 ? v.y : c == 2 ? v.z : v.w; }

struct Config {
  int rows, cols;
  unsigned long long seed;
  float keep, scale;  // 1 - p and 1 / (1 - p), in float on the host: both builds agree
};
inline Config config(const Params& p) {
  Config c{int(p.integer("rows")), int(p.integer("cols")), (unsigned long long)p.integer("seed", 0), 0, 0};
  const std::string& text = p.text("p");
  char* end = nullptr;
  const double drop = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !(drop >= 0.0 && drop < 1.0))
    throw std::invalid_argument("parameter --p: '" + text + "' is not a probability in [0, 1)");
  c.keep = float(1.0 - drop);
  c.scale = 1.0f / c.keep;
  return c;
}

// x, residual: test_values, multiples of 1/64 in [-1, 1); bias the same per column.
struct Inputs {
  std::vector<float> x, bias, residual;
};
inline Inputs inputs(int rows, int cols) {
  return {test_values(std::size_t(rows) * cols, 1), test_values(cols, 2), test_values(std::size_t(rows) * cols, 3)};
}

// launch(d_x, d_bias, d_residual, d_out, config) runs one version; returns out.
template <class Launch>
Outputs run(const Params& p, Launch launch) {
  const Config c = config(p);
  const std::size_t size = std::size_t(c.rows) * c.cols;
  const Inputs in = inputs(c.rows, c.cols);
  float *d_x, *d_bias, *d_residual, *d_out;
  cudaMalloc(&d_x, size * sizeof(float));
  cudaMalloc(&d_bias, c.cols * sizeof(float));
  cudaMalloc(&d_residual, size * sizeof(float));
  cudaMalloc(&d_out, size * sizeof(float));
  cudaMemcpy(d_x, in.x.data(), size * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_bias, in.bias.data(), c.cols * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_residual, in.residual.data(), size * sizeof(float), cudaMemcpyHostToDevice);
  launch(d_x, d_bias, d_residual, d_out, c);
  std::vector<float> out(size);
  cudaMemcpy(out.data(), d_out, size * sizeof(float), cudaMemcpyDeviceToHost);
  for (float* d : {d_x, d_bias, d_residual, d_out}) cudaFree(d);
  return {{{"out", out}}};
}

#if !defined(__CUDACC__)
// Philox4x32-10 (Salmon, Moraes, Dror, Shaw, "Parallel random numbers: as easy as
// 1, 2, 3", SC 2011), written from the paper for the host: 10 rounds of two
// 32 x 32 -> 64-bit products, the key bumped by the Weyl constants between rounds.
inline void philox4x32_10(std::uint32_t c[4], std::uint32_t k0, std::uint32_t k1) {
  for (int round = 0; round < 10; ++round) {
    if (round > 0) k0 += 0x9E3779B9u, k1 += 0xBB67AE85u;
    const std::uint64_t p0 = std::uint64_t(0xD2511F53u) * c[0], p1 = std::uint64_t(0xCD9E8D57u) * c[2];
    const std::uint32_t next[4] = {std::uint32_t(p1 >> 32) ^ c[1] ^ k0, std::uint32_t(p1),
                                   std::uint32_t(p0 >> 32) ^ c[3] ^ k1, std::uint32_t(p0)};
    for (int i = 0; i < 4; ++i) c[i] = next[i];
  }
}

// Which elements dropout keeps, as cuRAND draws them: curand_init(seed, k, 0) starts
// thread k at counter (0, 0, k_lo, k_hi) and key (seed_lo, seed_hi); its first
// curand_uniform4 is that block's 4 words w, each u = w * 2^-32 + 2^-33 in float.
inline std::vector<bool> keep_mask(std::size_t n, unsigned long long seed, float keep) {
  std::vector<bool> kept(n);
  for (std::size_t k = 0; 4 * k < n; ++k) {
    std::uint32_t c[4] = {0, 0, std::uint32_t(k), std::uint32_t(std::uint64_t(k) >> 32)};
    philox4x32_10(c, std::uint32_t(seed), std::uint32_t(seed >> 32));
    for (std::size_t i = 0; i < 4 && 4 * k + i < n; ++i) {
      const float u = float(c[i]) * 2.3283064e-10f + 1.1641532e-10f;
      kept[4 * k + i] = u < keep;
    }
  }
  return kept;
}

// The reference in double with the host mask: a wrong mask bit moves a value by a
// whole x + bias. Tolerance 3 u relative to |residual| + |(x + bias) * scale|: x + bias
// is exact, the product and the sum are one rounding each.
inline Check check(const Params& p, const Outputs& out) {
  const Config c = config(p);
  const Inputs in = inputs(c.rows, c.cols);
  const std::vector<bool> kept = keep_mask(in.x.size(), c.seed, c.keep);
  std::vector<double> want(in.x.size()), scale(in.x.size());
  for (std::size_t k = 0; k < in.x.size(); ++k) {
    const double t = kept[k] ? (double(in.x[k]) + in.bias[k % c.cols]) * c.scale : 0.0;
    want[k] = in.residual[k] + t;
    scale[k] = std::fabs(in.residual[k]) + std::fabs(t) + 1e-30;
  }
  return fused::compare_scaled(out.at("out").data, want, scale, 3 * std::ldexp(1.0, -24),
                               "out = residual + dropout(x + bias), Philox mask");
}
#else
inline constexpr std::nullptr_t check = nullptr;  // the reference runs in the simulator build only
#endif

}  // namespace fused_dropout
