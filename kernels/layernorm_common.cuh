// LayerNorm family (forward, fp32): for each row i of a rows x cols matrix x,
//   mean[i] = sum_j x[i][j] / cols
//   rstd[i] = 1 / sqrt(sum_j (x[i][j] - mean[i])^2 / cols + 1e-5)
//   out[i][j] = (x[i][j] - mean[i]) * rstd[i] * gamma[j] + beta[j]
// mean and rstd are outputs too, as the backward pass wants them (llm.c's
// layernorm_forward).
//
// Versions, each a lesson on the previous one (simt list shows them too):
//   layernorm_two_pass.cu    3 launches: mean, then the variance about it (a second pass,
//                            no cancellation), then normalise; a warp per row in the
//                            first two (coalesced, shuffle sums): x read 3 times
//   layernorm_welford.cu     1 launch, a warp per row: mean and variance from one pass by
//                            Welford's update per lane and Chan's merge across lanes
//                            (stable, but a division per element); x read twice
//   layernorm_fused.cu       1 launch, a block per row: x read once into shared memory,
//                            the sum and the sum of squares reduced together, so mean
//                            and variance cost one block reduction (one barrier), not two
//   layernorm_vectorized.cu  layernorm_fused with float4 loads and stores of x, gamma,
//                            beta and out: 4x fewer memory instructions, same sectors;
//                            cols % 4 != 0 falls back to scalar accesses
//   layernorm_half2.cu       fp16 x, gamma, beta and out (fp32 math, mean and rstd fp32):
//                            8 halves per 16-byte access, unpacked as __half2: half the
//                            bytes of layernorm_vectorized; cols % 8 != 0 goes scalar
//
// Backward (namespace layernorm_backward below), llm.c's layernorm_backward: from x,
// mean, rstd, gamma and the upstream gradient dy, with norm = (x - mean) * rstd and
// dnorm = gamma * dy,
//   dx[i][j]  = (dnorm - mean_j(dnorm) - norm * mean_j(dnorm * norm)) * rstd[i]
//   dgamma[j] = sum_i norm[i][j] * dy[i][j],   dbeta[j] = sum_i dy[i][j]
// dx is a row reduction, dgamma and dbeta column reductions. Versions:
//   layernorm_backward_naive.cu  2 launches: dx with a thread per row (uncoalesced, x, dy
//                                and gamma read twice per row), then dgamma and dbeta with
//                                a thread per column walking all rows (coalesced, but only
//                                cols threads, each a chain of rows loads): x and dy read
//                                three times from global memory in all
//   layernorm_backward_fused.cu  2 launches, llm.c style: a block per group of 8 rows
//                                computes dx (x and dy read once, kept in shared memory)
//                                and adds each row into the block's dgamma and dbeta in
//                                shared memory (every column owned by one thread: no
//                                atomics); a small second kernel adds the blocks' partials
//                                in a fixed order. Deterministic, x and dy read once
//
// Run:  simt run layernorm_fused --rows 1024 --cols 768
//       simt run layernorm_backward_fused --rows 1024 --cols 768
// CPU reference: in double, below. nvcc builds the same files unchanged.
#pragma once
#include "kernels/harness.hpp"
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

constexpr float kLayerNormEps = 1e-5f;

namespace layernorm {

using namespace simt::kernels;

inline std::vector<Param> params() {
  return {{"rows", "1024", "rows of x (tokens; one normalisation each)"},
          {"cols", "768", "columns of x (channels, GPT-2's 768 by default; any positive number)"}};
}

// The sum of v over the 32 lanes of a warp, returned to every lane (butterfly).
__device__ inline float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

// x: multiples of 1/64 in [-1, 1) plus 0.5, a mean away from 0; gamma around 1, beta
// around 0. Sums and sums of squares of such values are exact in float at these sizes.
struct Inputs {
  std::vector<float> x, gamma, beta;
};
inline Inputs inputs(int rows, int cols) {
  Inputs in{test_values(std::size_t(rows) * cols, 1), test_values(cols, 2), test_values(cols, 3)};
  for (float& v : in.x) v += 0.5f;
  for (float& g : in.gamma) g = 1.0f + g / 2;
  return in;
}

// launch(x, gamma, beta, out, mean, rstd, rows, cols) runs one version.
template <class Launch>
Outputs run(const Params& p, Launch launch) {
  const int rows = int(p.integer("rows")), cols = int(p.integer("cols"));
  const std::size_t size = std::size_t(rows) * cols;
  const Inputs in = inputs(rows, cols);
  float *d_x, *d_gamma, *d_beta, *d_out, *d_mean, *d_rstd;
  cudaMalloc(&d_x, size * sizeof(float));
  cudaMalloc(&d_gamma, cols * sizeof(float));
  cudaMalloc(&d_beta, cols * sizeof(float));
  cudaMalloc(&d_out, size * sizeof(float));
  cudaMalloc(&d_mean, rows * sizeof(float));
  cudaMalloc(&d_rstd, rows * sizeof(float));
  cudaMemcpy(d_x, in.x.data(), size * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_gamma, in.gamma.data(), cols * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_beta, in.beta.data(), cols * sizeof(float), cudaMemcpyHostToDevice);
  launch(d_x, d_gamma, d_beta, d_out, d_mean, d_rstd, rows, cols);
  std::vector<float> out(size), mean(rows), rstd(rows);
  cudaMemcpy(out.data(), d_out, size * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(mean.data(), d_mean, rows * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(rstd.data(), d_rstd, rows * sizeof(float), cudaMemcpyDeviceToHost);
  for (float* d : {d_x, d_gamma, d_beta, d_out, d_mean, d_rstd}) cudaFree(d);
  return {{{"out", out}, {"mean", mean}, {"rstd", rstd}}};
}

#if !defined(__CUDACC__)
inline std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// |got - want| <= atol + rtol * scale everywhere, scale the size of what was
// added up to make `want` (for a sum that cancels, its terms, not the result).
inline Check compare_near(const std::vector<float>& got, const std::vector<double>& want,
                          const std::vector<double>& scale, double rtol, double atol, const std::string& what) {
  Check c;
  if (got.size() != want.size()) {
    c.detail = what + ": size " + std::to_string(got.size()) + " != expected " + std::to_string(want.size());
    return c;
  }
  c.ok = true;
  std::size_t worst = 0;
  double worst_excess = -INFINITY;
  for (std::size_t i = 0; i < got.size(); ++i) {
    double e = std::fabs(double(got[i]) - want[i]);
    if (std::isnan(e)) e = INFINITY;
    const double bound = atol + rtol * scale[i];
    c.max_abs_err = std::max(c.max_abs_err, e);
    if (e - bound > worst_excess) worst_excess = e - bound, worst = i, c.tolerance = bound;
    if (e > bound) c.ok = false;
  }
  c.detail = what + ": " + std::to_string(got.size()) + " values" + (c.ok ? "" : " NOT") + " within " + num(atol) +
             " + " + num(rtol) + " * scale, max |error| " + num(c.max_abs_err) +
             (got.empty() ? "" : "; closest to its bound at index " + std::to_string(worst) + " (got " +
                                     num(got[worst]) + ", want " + num(want[worst]) + ")");
  return c;
}

// The reference in double; mean, rstd and out each within rtol 1e-5, atol 1e-6.
// The kernels compute in float, summing a row in their own orders (Welford's
// version by incremental updates), and rsqrtf is the H200's approximation (a
// couple of ulps): each moves a result by some ulps, 6e-8 relative apiece, and
// 1e-5 is about 100 ulps of room. out is a sum, (x - mean) * rstd * gamma + beta,
// whose terms may cancel: its scale is |(x - mean) * rstd * gamma| + |beta|, the
// size of the terms the rounding is relative to.
inline Check check_with(const Params& p, const Outputs& got, double out_rtol) {
  const int rows = int(p.integer("rows")), cols = int(p.integer("cols"));
  const Inputs in = inputs(rows, cols);
  std::vector<double> out(in.x.size()), out_scale(in.x.size()), mean(rows), rstd(rows);
  for (int i = 0; i < rows; ++i) {
    const float* xi = &in.x[std::size_t(i) * cols];
    double sum = 0, sq = 0;
    for (int j = 0; j < cols; ++j) sum += xi[j];
    mean[i] = sum / cols;
    for (int j = 0; j < cols; ++j) sq += (xi[j] - mean[i]) * (xi[j] - mean[i]);
    rstd[i] = 1.0 / std::sqrt(sq / cols + double(kLayerNormEps));
    for (int j = 0; j < cols; ++j) {
      const double scaled = (xi[j] - mean[i]) * rstd[i] * in.gamma[j];
      out[std::size_t(i) * cols + j] = scaled + in.beta[j];
      out_scale[std::size_t(i) * cols + j] = std::fabs(scaled) + std::fabs(in.beta[j]);
    }
  }
  std::vector<double> mean_scale(rows), rstd_scale(rows);
  for (int i = 0; i < rows; ++i) mean_scale[i] = std::fabs(mean[i]), rstd_scale[i] = rstd[i];
  Check c = compare_near(got.at("mean").data, mean, mean_scale, 1e-5, 1e-6, "mean");
  if (!c.ok) return c;
  Check r = compare_near(got.at("rstd").data, rstd, rstd_scale, 1e-5, 1e-6, "rstd");
  if (!r.ok) return r;
  Check o = compare_near(got.at("out").data, out, out_scale, out_rtol, 1e-6, "out");
  o.detail = c.detail + "; " + r.detail + "; " + o.detail;
  return o;
}
inline Check check(const Params& p, const Outputs& got) { return check_with(p, got, 1e-5); }
// out rounded to half once (layernorm_half2): half's rounding, 2^-11 relative, on top
// of the fp32 room; mean and rstd are fp32 and checked as above.
inline Check check_half(const Params& p, const Outputs& got) { return check_with(p, got, 1e-5 + std::ldexp(1.0, -11)); }
#else
inline constexpr std::nullptr_t check = nullptr;  // the reference runs in the simulator build only
inline constexpr std::nullptr_t check_half = nullptr;
#endif

}  // namespace layernorm

// ---- Backward: dx, dgamma, dbeta from x, mean, rstd, gamma, dy ----
namespace layernorm_backward {

using namespace simt::kernels;

inline std::vector<Param> params() { return layernorm::params(); }

// x and gamma as the forward pass's; mean and rstd what the forward computes, here
// in double on the host and rounded to float (IEEE operations only: both builds
// upload the same bits); dy: test_values, multiples of 1/64 in [-1, 1).
struct Inputs {
  std::vector<float> x, gamma, mean, rstd, dy;
};
inline Inputs inputs(int rows, int cols) {
  const layernorm::Inputs fwd = layernorm::inputs(rows, cols);
  Inputs in{fwd.x, fwd.gamma, std::vector<float>(rows), std::vector<float>(rows),
            test_values(std::size_t(rows) * cols, 4)};
  for (int i = 0; i < rows; ++i) {
    const float* xi = &in.x[std::size_t(i) * cols];
    double sum = 0, sq = 0;
    for (int j = 0; j < cols; ++j) sum += xi[j];
    const double mu = sum / cols;
    for (int j = 0; j < cols; ++j) sq += (xi[j] - mu) * (xi[j] - mu);
    in.mean[i] = float(mu);
    in.rstd[i] = float(1.0 / std::sqrt(sq / cols + double(kLayerNormEps)));
  }
  return in;
}

// launch(x, mean, rstd, gamma, dy, dx, dgamma, dbeta, rows, cols) runs one version.
template <class Launch>
Outputs run(const Params& p, Launch launch) {
  const int rows = int(p.integer("rows")), cols = int(p.integer("cols"));
  const std::size_t size = std::size_t(rows) * cols;
  const Inputs in = inputs(rows, cols);
  float *d_x, *d_mean, *d_rstd, *d_gamma, *d_dy, *d_dx, *d_dgamma, *d_dbeta;
  cudaMalloc(&d_x, size * sizeof(float));
  cudaMalloc(&d_mean, rows * sizeof(float));
  cudaMalloc(&d_rstd, rows * sizeof(float));
  cudaMalloc(&d_gamma, cols * sizeof(float));
  cudaMalloc(&d_dy, size * sizeof(float));
  cudaMalloc(&d_dx, size * sizeof(float));
  cudaMalloc(&d_dgamma, cols * sizeof(float));
  cudaMalloc(&d_dbeta, cols * sizeof(float));
  cudaMemcpy(d_x, in.x.data(), size * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_mean, in.mean.data(), rows * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_rstd, in.rstd.data(), rows * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_gamma, in.gamma.data(), cols * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_dy, in.dy.data(), size * sizeof(float), cudaMemcpyHostToDevice);
  launch(d_x, d_mean, d_rstd, d_gamma, d_dy, d_dx, d_dgamma, d_dbeta, rows, cols);
  std::vector<float> dx(size), dgamma(cols), dbeta(cols);
  cudaMemcpy(dx.data(), d_dx, size * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(dgamma.data(), d_dgamma, cols * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(dbeta.data(), d_dbeta, cols * sizeof(float), cudaMemcpyDeviceToHost);
  for (float* d : {d_x, d_mean, d_rstd, d_gamma, d_dy, d_dx, d_dgamma, d_dbeta}) cudaFree(d);
  return {{{"dx", dx}, {"dgamma", dgamma}, {"dbeta", dbeta}}};
}

#if !defined(__CUDACC__)
// The reference in double from the same float inputs. Tolerances are the classic
// bounds for float sums in any order (n terms: n * u * sum |terms|, u = 2^-24;
// Higham, ch. 3) plus a few roundings, each against the scale of the terms:
//   dbeta: sums of multiples of 1/64 below 2^18 in size: exact in every order, so
//          checked bit for bit (rows * 64 < 2^24);
//   dgamma[j]: rows products, norm itself two roundings: (rows + 4) u * sum_i |norm dy|;
//   dx: two row sums of cols terms and four roundings after:
//          (cols + 8) u * rstd * (|dnorm| + mean|dnorm| + |norm| mean|dnorm norm|).
// A wrong row, column or missing term moves a value by a whole term: far outside.
inline Check check(const Params& p, const Outputs& got) {
  const int rows = int(p.integer("rows")), cols = int(p.integer("cols"));
  const Inputs in = inputs(rows, cols);
  const std::size_t size = std::size_t(rows) * cols;
  std::vector<double> dx(size), dx_scale(size), dgamma(cols, 0.0), dgamma_scale(cols, 0.0), dbeta(cols, 0.0),
      zero(cols, 0.0);
  for (int i = 0; i < rows; ++i) {
    const std::size_t row = std::size_t(i) * cols;
    double a = 0, a_abs = 0, b = 0, b_abs = 0;
    for (int j = 0; j < cols; ++j) {
      const double norm = (double(in.x[row + j]) - in.mean[i]) * in.rstd[i], dnorm = double(in.gamma[j]) * in.dy[row + j];
      a += dnorm, a_abs += std::fabs(dnorm), b += dnorm * norm, b_abs += std::fabs(dnorm * norm);
      dgamma[j] += norm * in.dy[row + j];
      dgamma_scale[j] += std::fabs(norm * in.dy[row + j]);
      dbeta[j] += in.dy[row + j];
    }
    a /= cols, a_abs /= cols, b /= cols, b_abs /= cols;
    for (int j = 0; j < cols; ++j) {
      const double norm = (double(in.x[row + j]) - in.mean[i]) * in.rstd[i], dnorm = double(in.gamma[j]) * in.dy[row + j];
      dx[row + j] = (dnorm - a - norm * b) * in.rstd[i];
      dx_scale[row + j] = (std::fabs(dnorm) + a_abs + std::fabs(norm) * b_abs) * in.rstd[i];
    }
  }
  const double u = std::ldexp(1.0, -24);
  Check c = layernorm::compare_near(got.at("dbeta").data, dbeta, zero, 0, 0, "dbeta (exact)");
  if (!c.ok) return c;
  Check g = layernorm::compare_near(got.at("dgamma").data, dgamma, dgamma_scale, (rows + 4) * u, 0, "dgamma");
  if (!g.ok) return g;
  Check d = layernorm::compare_near(got.at("dx").data, dx, dx_scale, (cols + 8) * u, 0, "dx");
  d.detail = c.detail + "; " + g.detail + "; " + d.detail;
  return d;
}
#else
inline constexpr std::nullptr_t check = nullptr;  // the reference runs in the simulator build only
#endif

}  // namespace layernorm_backward
