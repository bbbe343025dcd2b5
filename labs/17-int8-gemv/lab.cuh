// Lab 17 harness (labs/17-int8-gemv/README.md): the sizes, the weights in both
// formats, the CPU reference and the comparison. Your file includes it and defines
// launch_gemv.
#pragma once
#include <cstdint>

#include "simtlab_lab.cuh"

// y = W x for a rows x cols weight matrix W (row-major) and a vector x of cols floats:
// one decode step's projection. W is given twice, with the same values:
//   w      fp32, rows * cols floats;
//   w_q    int8, rows * cols bytes, with one fp32 scale per row (per-channel
//          quantisation): W[r][j] == w_q[r * cols + j] * scale[r], exactly.
void launch_gemv(const float* w, const int8_t* w_q, const float* scale, const float* x, float* y, int rows, int cols);

int main(int argc, char** argv) {
  lab::Case c(argc, argv);
  const int rows = int(c.size("rows", 256));
  const int cols = int(c.size("cols", 512));
  lab::Random random(17);
  const std::vector<float> x = random.floats(cols, -1.0f, 1.0f);

  // Quantise random weights row by row: scale = max |w| / 127, w_q = round(w / scale).
  // Rows of different ranges, so that a wrong row's scale shows.
  std::vector<int8_t> w_q(std::size_t(rows) * cols);
  std::vector<float> scale(rows), w(w_q.size());
  for (int r = 0; r < rows; ++r) {
    const float range = random.uniform(0.01f, 0.2f);
    const std::vector<float> row = random.floats(cols, -range, range);
    float top = 0.0f;
    for (float v : row) top = std::max(top, std::fabs(v));
    scale[r] = top / 127.0f;
    for (int j = 0; j < cols; ++j) {
      const std::size_t k = std::size_t(r) * cols + j;
      w_q[k] = int8_t(std::lround(row[j] / scale[r]));
      w[k] = float(w_q[k]) * scale[r];  // the dequantised weight: the starter's fp32 copy
    }
  }

  std::vector<float> want(rows);
  for (int r = 0; r < rows; ++r) {
    float acc = 0.0f;
    for (int j = 0; j < cols; ++j) acc += w[std::size_t(r) * cols + j] * x[j];
    want[r] = acc;
  }

  const float* d_w = c.to_device("w", w);
  const int8_t* d_w_q = c.to_device("w_q", w_q);
  const float* d_scale = c.to_device("scale", scale);
  const float* d_x = c.to_device("x", x);
  float* d_y = c.output<float>("y", rows);
  launch_gemv(d_w, d_w_q, d_scale, d_x, d_y, rows, cols);
  // Near, not equal: the reference adds the dequantised products w * x in column
  // order; a kernel adds them in another order (lanes, then a shuffle tree) and may
  // multiply by the row's scale once at the end instead of per weight. y is a sum of
  // up to 512 terms of up to 0.2, and these orders differ by up to about 2e-6 at
  // 256 x 512; 3e-5 absolute + 1e-5 relative leaves room for other orders and stays
  // far below what one weight off by a quantisation step (about 1e-3 x |x_j|) or a
  // forgotten scale would change.
  if (c.launched("launch_gemv")) c.expect_near("y", c.to_host(d_y, rows), want, 3e-5, 1e-5);
  return c.finish();
}
