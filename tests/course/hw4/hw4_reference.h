// CPU references of the HW4 kernels, in double, following the definitions of the
// course's launchers (llmsys_hw4 src/softmax_kernel.cu, src/layernorm_kernel.cu):
// LightSeq's EPSILON added to the softmax sum, LN_EPSILON to the variance. Host code only.
#pragma once

#include "hw4_check.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace hw4 {

constexpr double kSoftmaxEpsilon = 1e-8;    // EPSILON in softmax_kernel.cu
constexpr double kLayerNormEpsilon = 1e-8;  // LN_EPSILON in layernorm_kernel.cu
constexpr double kMasked = -1e8;            // REDUCE_FLOAT_INF_NEG in block_reduce.h

// inp [batch, nhead, from_len, to_len] plus mask [batch, to_len]; with mask_future,
// column c of row r is masked when c > r (decoder self-attention).
inline std::vector<double> softmax_forward(const std::vector<float>& inp, const std::vector<float>& mask, int batch,
                                           int nhead, int from_len, int to_len, bool mask_future) {
  std::vector<double> out(inp.size()), v(to_len);
  for (int b = 0; b < batch; ++b)
    for (int h = 0; h < nhead; ++h)
      for (int r = 0; r < from_len; ++r) {
        const std::size_t row = ((std::size_t(b) * nhead + h) * from_len + r) * to_len;
        double mx = kMasked, sum = 0;
        for (int c = 0; c < to_len; ++c) {
          v[c] = mask_future && c > r ? kMasked : double(inp[row + c]) + double(mask[std::size_t(b) * to_len + c]);
          mx = std::max(mx, v[c]);
        }
        for (int c = 0; c < to_len; ++c) sum += v[c] = std::exp(v[c] - mx);
        for (int c = 0; c < to_len; ++c) out[row + c] = v[c] / (sum + kSoftmaxEpsilon);
      }
  return out;
}

// A plain softmax of each row, rounded to float: the softmax output the backward reads.
inline std::vector<float> softmax_rows(const std::vector<float>& x, int rows, int len) {
  std::vector<float> out(x.size());
  for (int r = 0; r < rows; ++r) {
    const std::size_t row = std::size_t(r) * len;
    double mx = x[row], sum = 0;
    for (int c = 1; c < len; ++c) mx = std::max(mx, double(x[row + c]));
    for (int c = 0; c < len; ++c) sum += std::exp(x[row + c] - mx);
    for (int c = 0; c < len; ++c) out[row + c] = float(std::exp(x[row + c] - mx) / sum);
  }
  return out;
}

// dinp = y * (dy - sum(dy * y)) per row, y the softmax output.
inline std::vector<double> softmax_backward(const std::vector<float>& grad, const std::vector<float>& soft, int rows,
                                            int len) {
  std::vector<double> out(grad.size());
  for (int r = 0; r < rows; ++r) {
    const std::size_t row = std::size_t(r) * len;
    double dot = 0;
    for (int c = 0; c < len; ++c) dot += double(grad[row + c]) * soft[row + c];
    for (int c = 0; c < len; ++c) out[row + c] = soft[row + c] * (grad[row + c] - dot);
  }
  return out;
}

// Per-row mean and (population) variance, rounded to float: what the course's test
// hands to the backward launcher.
inline void row_statistics(const std::vector<float>& x, int rows, int hidden, std::vector<float>& means,
                           std::vector<float>& vars) {
  for (int r = 0; r < rows; ++r) {
    const std::size_t row = std::size_t(r) * hidden;
    double s = 0, q = 0;
    for (int c = 0; c < hidden; ++c) s += x[row + c];
    const double mean = s / hidden;
    for (int c = 0; c < hidden; ++c) q += (x[row + c] - mean) * (x[row + c] - mean);
    means[r] = float(mean);
    vars[r] = float(q / hidden);
  }
}

struct LayerNormForward {
  std::vector<double> out, vars, means;
};

// vars keeps variance + LN_EPSILON, as the kernel stores it for the backward.
inline LayerNormForward layernorm_forward(const std::vector<float>& x, const std::vector<float>& gamma,
                                          const std::vector<float>& beta, int rows, int hidden) {
  LayerNormForward f{std::vector<double>(x.size()), std::vector<double>(rows), std::vector<double>(rows)};
  for (int r = 0; r < rows; ++r) {
    const std::size_t row = std::size_t(r) * hidden;
    double s = 0, q = 0;
    for (int c = 0; c < hidden; ++c) s += x[row + c];
    const double mean = s / hidden;
    for (int c = 0; c < hidden; ++c) q += (x[row + c] - mean) * (x[row + c] - mean);
    const double var = q / hidden + kLayerNormEpsilon;
    f.means[r] = mean;
    f.vars[r] = var;
    for (int c = 0; c < hidden; ++c) f.out[row + c] = (x[row + c] - mean) / std::sqrt(var) * gamma[c] + beta[c];
  }
  return f;
}

struct LayerNormBackward {
  std::vector<double> dgamma, dbeta, dinp;
};

// xhat = (x - mean) / sqrt(var + eps); dbeta = sum_rows dout; dgamma = sum_rows xhat * dout;
// dinp = (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)) / sqrt(var + eps), dxhat = dout * gamma.
inline LayerNormBackward layernorm_backward(const std::vector<float>& dout, const std::vector<float>& x,
                                            const std::vector<float>& gamma, const std::vector<float>& means,
                                            const std::vector<float>& vars, int rows, int hidden) {
  LayerNormBackward g{std::vector<double>(hidden), std::vector<double>(hidden), std::vector<double>(x.size())};
  std::vector<double> xhat(hidden), dxhat(hidden);
  for (int r = 0; r < rows; ++r) {
    const std::size_t row = std::size_t(r) * hidden;
    const double rstd = 1 / std::sqrt(double(vars[r]) + kLayerNormEpsilon);
    double sum_dxhat = 0, sum_dxhat_xhat = 0;
    for (int c = 0; c < hidden; ++c) {
      xhat[c] = (x[row + c] - double(means[r])) * rstd;
      dxhat[c] = double(dout[row + c]) * gamma[c];
      g.dbeta[c] += dout[row + c];
      g.dgamma[c] += xhat[c] * dout[row + c];
      sum_dxhat += dxhat[c];
      sum_dxhat_xhat += dxhat[c] * xhat[c];
    }
    for (int c = 0; c < hidden; ++c)
      g.dinp[row + c] = (dxhat[c] - sum_dxhat / hidden - xhat[c] * sum_dxhat_xhat / hidden) * rstd;
  }
  return g;
}

}  // namespace hw4
