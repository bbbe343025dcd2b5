// Naive LayerNorm backward, two launches (kernels/layernorm_common.cuh,
// layernorm_backward), each reduction in its own kernel:
//   1. layernorm_backward_naive_dx      one thread per row: the two row means
//                                       mean_j(dnorm) and mean_j(dnorm * norm) in one
//                                       walk, then dx in a second walk of the row
//   2. layernorm_backward_naive_params  one thread per column: dgamma[j] and dbeta[j]
//                                       summed down all rows
// In 1 neighbouring lanes walk neighbouring rows, cols floats apart: every load of x
// and dy is a sector per lane (32 per request), and each row is walked twice. 2 is
// coalesced (a warp reads 32 neighbouring columns of a row) but reads x and dy a
// third time, and has only cols threads, each a chain of `rows` dependent loads.
#include "kernels/harness.hpp"
#include "kernels/layernorm_common.cuh"
#include <cuda_runtime.h>

__global__ void layernorm_backward_naive_dx(const float* x, const float* mean, const float* rstd, const float* gamma,
                                            const float* dy, float* dx, int rows, int cols) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const float* xi = x + size_t(i) * cols;
  const float* dyi = dy + size_t(i) * cols;
  const float mu = mean[i], rs = rstd[i];
  float a = 0.0f, b = 0.0f;  // sums of dnorm and of dnorm * norm
  for (int j = 0; j < cols; ++j) {
    const float norm = (xi[j] - mu) * rs, dnorm = gamma[j] * dyi[j];
    a += dnorm;
    b += dnorm * norm;
  }
  a = a / cols;
  b = b / cols;
  for (int j = 0; j < cols; ++j) {
    const float norm = (xi[j] - mu) * rs, dnorm = gamma[j] * dyi[j];
    dx[size_t(i) * cols + j] = (dnorm - a - norm * b) * rs;
  }
}

__global__ void layernorm_backward_naive_params(const float* x, const float* mean, const float* rstd, const float* dy,
                                                float* dgamma, float* dbeta, int rows, int cols) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= cols) return;
  float g = 0.0f, b = 0.0f;
  for (int i = 0; i < rows; ++i) {
    const float d = dy[size_t(i) * cols + j];
    g += (x[size_t(i) * cols + j] - mean[i]) * rstd[i] * d;
    b += d;
  }
  dgamma[j] = g;
  dbeta[j] = b;
}

namespace {
constexpr int kThreads = 256;

void launch(const float* x, const float* mean, const float* rstd, const float* gamma, const float* dy, float* dx,
            float* dgamma, float* dbeta, int rows, int cols) {
  layernorm_backward_naive_dx<<<(rows + kThreads - 1) / kThreads, kThreads>>>(x, mean, rstd, gamma, dy, dx, rows, cols);
  layernorm_backward_naive_params<<<(cols + kThreads - 1) / kThreads, kThreads>>>(x, mean, rstd, dy, dgamma, dbeta,
                                                                                  rows, cols);
}

simt::kernels::Outputs run(const simt::kernels::Params& p) { return layernorm_backward::run(p, launch); }

simt::kernels::Registration reg({"layernorm_backward_naive",
                                 "LayerNorm backward in 2 launches: dx a thread per row, dgamma/dbeta a thread per column",
                                 layernorm_backward::params(), run, layernorm_backward::check});
}  // namespace
