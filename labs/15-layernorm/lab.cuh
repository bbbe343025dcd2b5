// Lab 15 harness (labs/15-layernorm/README.md): the sizes, the inputs, the CPU
// reference and the comparison. Your file includes it and defines launch_layernorm.
#pragma once
#include "simtlab_lab.cuh"

constexpr float kEps = 1e-5f;

// LayerNorm forward over each row of a rows x cols matrix (row-major), as in a
// transformer's training step (llm.c's layernorm_forward):
//   mean[i] = sum_j x[i][j] / cols
//   rstd[i] = 1 / sqrt(sum_j (x[i][j] - mean[i])^2 / cols + kEps)
//   out[i][j] = (x[i][j] - mean[i]) * rstd[i] * gamma[j] + beta[j]
// mean and rstd are outputs too: the backward pass needs them.
void launch_layernorm(const float* x, const float* gamma, const float* beta, float* out, float* mean, float* rstd,
                      int rows, int cols);

int main(int argc, char** argv) {
  lab::Case c(argc, argv);
  const int rows = int(c.size("rows", 64));
  const int cols = int(c.size("cols", 128));
  lab::Random random(15);
  // Activations off-centre (mean near 0.5), so a wrong mean shows.
  const std::vector<float> x = random.floats(std::size_t(rows) * cols, -2.0f, 3.0f);
  const std::vector<float> gamma = random.floats(cols, 0.5f, 1.5f);
  const std::vector<float> beta = random.floats(cols, -0.5f, 0.5f);

  std::vector<float> want(x.size()), want_mean(rows), want_rstd(rows);
  for (int i = 0; i < rows; ++i) {
    const float* xi = &x[std::size_t(i) * cols];
    float sum = 0.0f;
    for (int j = 0; j < cols; ++j) sum += xi[j];
    const float mu = sum / cols;
    float sq = 0.0f;
    for (int j = 0; j < cols; ++j) sq += (xi[j] - mu) * (xi[j] - mu);
    const float rs = 1.0f / std::sqrt(sq / cols + kEps);
    for (int j = 0; j < cols; ++j) want[std::size_t(i) * cols + j] = (xi[j] - mu) * rs * gamma[j] + beta[j];
    want_mean[i] = mu, want_rstd[i] = rs;
  }

  const float* d_x = c.to_device("x", x);
  const float* d_gamma = c.to_device("gamma", gamma);
  const float* d_beta = c.to_device("beta", beta);
  float* d_out = c.output<float>("out", x.size());
  float* d_mean = c.output<float>("mean", rows);
  float* d_rstd = c.output<float>("rstd", rows);
  launch_layernorm(d_x, d_gamma, d_beta, d_out, d_mean, d_rstd, rows, cols);
  // Near, not equal: a block adds the row in another order than this loop, and
  // rsqrtf (or 1/sqrtf) on the GPU need not round like 1/std::sqrt here. Each moves a
  // result by a few ulps; outputs are of order 1 (normalised, times gamma ~ 1, plus
  // beta), so 1e-5 absolute + 1e-5 relative is some 100 ulps of room — and far below
  // what a wrong mean, variance or eps would change.
  if (c.launched("launch_layernorm")) {
    c.expect_near("out", c.to_host(d_out, x.size()), want, 1e-5, 1e-5);
    c.expect_near("mean", c.to_host(d_mean, rows), want_mean, 1e-5, 1e-5);
    c.expect_near("rstd", c.to_host(d_rstd, rows), want_rstd, 1e-5, 1e-5);
  }
  return c.finish();
}
