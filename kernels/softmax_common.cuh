// Softmax family: y[i][j] = exp(x[i][j] - max_i) / sum_k exp(x[i][k] - max_i) for
// each row i of a rows x cols matrix (row-major, fp32, forward only), the attention
// softmax. With --causal 1 row i sees only columns j <= i: the others count as -inf,
// so their y is exactly 0 and they take no part in the max or the sum.
//
// Versions, each a lesson on the previous one (simt list shows them too):
//   softmax_naive.cu          3 launches: row max, row sum of exp, normalise, through global
//                             temporaries; one thread per row in the first two, so a warp's
//                             load touches 32 rows: 32 sectors per request, x read 3 times
//   softmax_online.cu         2 launches: the max and the sum in one pass (online softmax:
//                             the sum is rescaled when the max grows), then normalise;
//                             x read twice, one temporary pass fewer
//   softmax_warp_per_row.cu   1 launch: one warp per row, lanes stride the row (coalesced,
//                             4 sectors per request), the (max, sum) pairs merged by
//                             __shfl_xor_sync only: no shared memory, no barrier; x read twice
//   softmax_block_per_row.cu  1 launch: one block per row, warp shuffles then one pair per
//                             warp through shared memory; the row is kept in shared memory
//                             on the way in, so x is read from global memory once
//   softmax_lightseq.cu       1 launch: a block per row as LightSeq does it: the row held in
//                             registers (a compile-time count per thread), max and sum as
//                             two block reductions, expf once per value; no shared copy
//
// Backward (namespace softmax_backward below): given y = softmax(x) and the upstream
// gradient dy, dx[i][j] = y[i][j] * (dy[i][j] - sum_k dy[i][k] * y[i][k]): a row dot
// product, then an elementwise pass. Versions:
//   softmax_backward_naive.cu        2 launches: the row dot product with one thread per
//                                    row (32 sectors per request, as softmax_naive), then
//                                    dx with one thread per element through a global temporary
//   softmax_backward_warp_per_row.cu 1 launch: a warp per row, lanes stride the row
//                                    (coalesced), the dot product summed by __shfl_xor_sync;
//                                    the dot stays in a register: no temporary, no barrier
//   softmax_backward_lightseq.cu     1 launch: a warp per row as above, but each lane keeps
//                                    its y and dy in registers (a compile-time count, as
//                                    LightSeq's backward): y and dy read once, not twice
// With --causal 1 (y from a causal softmax: 0 past the diagonal) every version reads only
// the visible columns and writes exactly 0 for the others: about half the traffic of a
// square score matrix, the saving a causal backward exists for.
//
// Run:  simt run softmax_block_per_row --rows 1024 --cols 1000 [--causal 1]
//       simt run softmax_backward_warp_per_row --rows 1024 --cols 1000 [--causal 1]
// CPU reference: in double, below. nvcc builds the same files unchanged.
#pragma once
#include "kernels/harness.hpp"
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace softmax {

using namespace simt::kernels;

inline std::vector<Param> params() {
  return {{"rows", "1024", "rows of x (one softmax each)"},
          {"cols", "1000", "columns of x (any positive number)"},
          {"causal", "0", "1: row i sees only columns j <= i (the others give exactly 0)"}};
}

// The columns row i takes part with: all, or j <= i under the causal mask. Never
// empty (row 0 sees column 0), so every row has a finite max and a sum >= 1.
__host__ __device__ inline int visible_cols(int row, int cols, bool causal) {
  return causal ? (row + 1 < cols ? row + 1 : cols) : cols;
}

// Online softmax (Milakov & Gimelshein, 2018): (m, s) is a running max and the sum
// of exp(x - m) over the values seen so far. A new value above the max rescales the
// sum to the new max; one expf per value either way.
__device__ inline void online_add(float& m, float& s, float v) {
  if (v > m) {
    s = s * expf(m - v) + 1.0f;  // m = -inf at the start: expf(-inf) = 0, s becomes 1
    m = v;
  } else {
    s += expf(v - m);
  }
}

// Merges the partial pair (m2, s2) into (m, s), both sums rescaled to the larger
// max. Two empty partials (max -inf: lanes past the row's end) stay empty, since
// -inf - -inf would be NaN.
__device__ inline void online_merge(float& m, float& s, float m2, float s2) {
  const float top = fmaxf(m, m2);
  if (top == -INFINITY) return;
  s = s * expf(m - top) + s2 * expf(m2 - top);
  m = top;
}

// Inputs: 8 * test_values, multiples of 1/8 in [-8, 8): the spread of attention
// scores, where exp without the max subtracted would lose digits and the max matters.
inline std::vector<float> inputs(int rows, int cols) {
  std::vector<float> x = test_values(std::size_t(rows) * cols, 1);
  for (float& v : x) v *= 8.0f;
  return x;
}

// launch(d_x, d_y, rows, cols, causal) runs one version; returns y.
template <class Launch>
Outputs run(const Params& p, Launch launch) {
  const int rows = int(p.integer("rows")), cols = int(p.integer("cols"));
  const bool causal = p.integer("causal", 0, 1) != 0;
  const std::size_t size = std::size_t(rows) * cols;
  const std::vector<float> x = inputs(rows, cols);
  float *d_x, *d_y;
  cudaMalloc(&d_x, size * sizeof(float));
  cudaMalloc(&d_y, size * sizeof(float));
  cudaMemcpy(d_x, x.data(), size * sizeof(float), cudaMemcpyHostToDevice);
  launch(d_x, d_y, rows, cols, causal);
  std::vector<float> y(size);
  cudaMemcpy(y.data(), d_y, size * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_y);
  return {{{"y", y}}};
}

#if !defined(__CUDACC__)
// |got - want| <= atol + rtol * |want| everywhere; max_abs_err is the worst
// absolute error, tolerance the bound at that element.
inline std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

inline Check compare_near(const std::vector<float>& got, const std::vector<double>& want, double rtol, double atol,
                          const std::string& what) {
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
    const double bound = atol + rtol * std::fabs(want[i]);
    c.max_abs_err = std::max(c.max_abs_err, e);
    if (e - bound > worst_excess) worst_excess = e - bound, worst = i, c.tolerance = bound;
    if (e > bound) c.ok = false;
  }
  c.detail = what + ": " + std::to_string(got.size()) + " values within " + num(atol) + " + " + num(rtol) +
             " * |want|" + (c.ok ? "" : " FAILED") + ", max |error| " + num(c.max_abs_err) +
             (got.empty() ? "" : "; closest to its bound at index " + std::to_string(worst) + " (got " +
                                     num(got[worst]) + ", want " + num(want[worst]) + ")");
  return c;
}

// The reference in double. Tolerance rtol 1e-5, atol 1e-6: the simulator's expf
// gives the H200's bits (a few ulps from the correctly rounded value, and from
// glibc's), and the kernels sum a row in float in their own orders (by thread,
// by warp, by block) while this sums in double: each moves y by some ulps of
// float (6e-8 relative), and 1e-5 relative is about 100 ulps of room. The atol
// covers the smallest visible y (exp(-16)/1000, about 1e-10), whose relative
// error is as large as a big one's but tiny in absolute terms. Masked entries are
// exactly 0 in every version; 1e-6 admits a visible y there, the tests check the
// zeros exactly.
inline std::vector<double> reference(int rows, int cols, bool causal) {
  const std::vector<float> x = inputs(rows, cols);
  std::vector<double> y(x.size(), 0.0);
  for (int i = 0; i < rows; ++i) {
    const float* xi = &x[std::size_t(i) * cols];
    const int visible = visible_cols(i, cols, causal);
    double m = -INFINITY, sum = 0;
    for (int j = 0; j < visible; ++j) m = std::max(m, double(xi[j]));
    for (int j = 0; j < visible; ++j) sum += std::exp(double(xi[j]) - m);
    for (int j = 0; j < visible; ++j) y[std::size_t(i) * cols + j] = std::exp(double(xi[j]) - m) / sum;
  }
  return y;
}

inline Check check(const Params& p, const Outputs& out) {
  const int rows = int(p.integer("rows")), cols = int(p.integer("cols"));
  const bool causal = p.integer("causal", 0, 1) != 0;
  return compare_near(out.at("y").data, reference(rows, cols, causal), 1e-5, 1e-6, "y = softmax(x) by rows");
}
#else
inline constexpr std::nullptr_t check = nullptr;  // the reference runs in the simulator build only
#endif

}  // namespace softmax

// ---- Backward: dx = y * (dy - sum_k dy_k * y_k) per row ----
namespace softmax_backward {

using namespace simt::kernels;

inline std::vector<Param> params() {
  return {{"rows", "1024", "rows of y and dy (one softmax each)"},
          {"cols", "1000", "columns (any positive number)"},
          {"causal", "0", "1: y came from a causal softmax (0 past the diagonal); dx is exactly 0 there"}};
}

// y: each row a probability distribution over its visible columns, w_j / sum_k w_k for
// integer weights w in 1..128 (from test_values), exactly 0 on masked columns: computed
// on the host with IEEE operations only, so both builds upload the same bits. dy:
// test_values, multiples of 1/64 in [-1, 1), on every column (the upstream gradient
// does not know the mask).
struct Inputs {
  std::vector<float> y, dy;
};
inline Inputs inputs(int rows, int cols, bool causal) {
  Inputs in{test_values(std::size_t(rows) * cols, 1), test_values(std::size_t(rows) * cols, 2)};
  for (int i = 0; i < rows; ++i) {
    float* yi = &in.y[std::size_t(i) * cols];
    const int visible = softmax::visible_cols(i, cols, causal);
    double total = 0;
    for (int j = 0; j < visible; ++j) total += (yi[j] = (yi[j] + 1.0f) * 64.0f + 1.0f);  // 1..128, exact
    for (int j = 0; j < visible; ++j) yi[j] = float(double(yi[j]) / total);
    for (int j = visible; j < cols; ++j) yi[j] = 0.0f;
  }
  return in;
}

// launch(d_y, d_dy, d_dx, rows, cols, causal) runs one version; returns dx.
template <class Launch>
Outputs run(const Params& p, Launch launch) {
  const int rows = int(p.integer("rows")), cols = int(p.integer("cols"));
  const bool causal = p.integer("causal", 0, 1) != 0;
  const std::size_t size = std::size_t(rows) * cols;
  const Inputs in = inputs(rows, cols, causal);
  float *d_y, *d_dy, *d_dx;
  cudaMalloc(&d_y, size * sizeof(float));
  cudaMalloc(&d_dy, size * sizeof(float));
  cudaMalloc(&d_dx, size * sizeof(float));
  cudaMemcpy(d_y, in.y.data(), size * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_dy, in.dy.data(), size * sizeof(float), cudaMemcpyHostToDevice);
  launch(d_y, d_dy, d_dx, rows, cols, causal);
  std::vector<float> dx(size);
  cudaMemcpy(dx.data(), d_dx, size * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_y);
  cudaFree(d_dy);
  cudaFree(d_dx);
  return {{{"dx", dx}}};
}

#if !defined(__CUDACC__)
// The reference in double from the same float y and dy. Tolerance: the float dot
// product of a row is a sum of cols rounded products, in an order each version picks;
// whatever the order its error is at most about cols * u * sum_k |dy_k y_k| (u = 2^-24,
// Higham, Accuracy and Stability of Numerical Algorithms, ch. 3), and dy - dot and the
// product with y add two roundings more. So each dx is checked within
// (cols + 4) * u * y_j * (|dy_j| + sum_k |dy_k y_k|): the bound for any summation
// order, about 6e-5 relative at 1000 columns. A wrong index or a lost term moves dx
// by a whole term, orders of magnitude more. Masked columns (y = 0) must be exactly 0.
inline Check check(const Params& p, const Outputs& out) {
  const int rows = int(p.integer("rows")), cols = int(p.integer("cols"));
  const bool causal = p.integer("causal", 0, 1) != 0;
  const Inputs in = inputs(rows, cols, causal);
  std::vector<double> dx(in.y.size()), scale(in.y.size());
  for (int i = 0; i < rows; ++i) {
    const std::size_t row = std::size_t(i) * cols;
    double dot = 0, dot_abs = 0;
    for (int j = 0; j < cols; ++j) {
      dot += double(in.dy[row + j]) * in.y[row + j];
      dot_abs += std::fabs(double(in.dy[row + j]) * in.y[row + j]);
    }
    for (int j = 0; j < cols; ++j) {
      dx[row + j] = in.y[row + j] * (in.dy[row + j] - dot);
      scale[row + j] = in.y[row + j] * (std::fabs(in.dy[row + j]) + dot_abs);
    }
  }
  const double rtol = (cols + 4) * std::ldexp(1.0, -24);
  std::vector<float> got = out.at("dx").data;
  // softmax::compare_near bounds by |want|; here by the scale of the terms.
  Check c;
  if (got.size() != dx.size()) {
    c.detail = "dx: size " + std::to_string(got.size()) + " != expected " + std::to_string(dx.size());
    return c;
  }
  c.ok = true;
  for (std::size_t k = 0; c.ok && k < got.size(); ++k) {
    const double e = std::fabs(double(got[k]) - dx[k]), bound = rtol * scale[k] + 1e-30;
    if (!(e <= bound)) c.ok = false, c.detail = "dx[" + std::to_string(k) + "] = " + softmax::num(got[k]) +
                                                 ", want " + softmax::num(dx[k]) + " within " + softmax::num(bound);
    c.max_abs_err = std::max(c.max_abs_err, std::isnan(e) ? INFINITY : e);
  }
  c.tolerance = rtol;
  c.detail = "dx = y * (dy - dot(dy, y)) by rows: " + std::to_string(got.size()) + " values within " +
             softmax::num(rtol) + " * y * (|dy| + sum |dy y|)" + (c.ok ? "" : " FAILED: " + c.detail) +
             ", max |error| " + softmax::num(c.max_abs_err);
  return c;
}
#else
inline constexpr std::nullptr_t check = nullptr;  // the reference runs in the simulator build only
#endif

}  // namespace softmax_backward
