// The HW4 driver's CPU references and checks (hw4_reference.h, hw4_check.h) on planted
// data with known answers, and simtlab's <math_constants.h>. The course's repository
// is not available in CI, so the HW4 run itself is a documented recipe
// (docs/course-hw4.md, tests/course/hw4/run_hw4.sh); this is what can be checked offline.
#include "hw4_reference.h"
#include "sim/compiler/include/math_constants.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <numeric>

namespace {

// Central difference of sum(dout * layernorm(x)) with respect to x[i], in double.
double numeric_dinp(std::vector<float> x, const std::vector<float>& dout, const std::vector<float>& gamma,
                    const std::vector<float>& beta, int hidden, int i) {
  const float h = 1.0f / 1024;  // exact in float
  auto loss = [&](float xi) {
    std::vector<float> xs = x;
    xs[i] = xi;
    const hw4::LayerNormForward f = hw4::layernorm_forward(xs, gamma, beta, 1, hidden);
    double l = 0;
    for (int c = 0; c < hidden; ++c) l += dout[c] * (f.out[c] - beta[c]);
    return l;
  };
  return (loss(x[i] + h) - loss(x[i] - h)) / (2 * h);
}

}  // namespace

TEST_CASE("softmax reference: uniform rows, the padding mask and the future mask") {
  const int to_len = 4;
  std::vector<float> inp(2 * to_len, 0.5f);  // batch 1, 1 head, from_len 2
  std::vector<float> mask = {0, 0, 0, -1e8f};
  const double eps = hw4::kSoftmaxEpsilon;  // LightSeq adds it to the sum
  std::vector<double> out = hw4::softmax_forward(inp, mask, 1, 1, 2, to_len, false);
  for (int c = 0; c < 3; ++c) CHECK(out[c] == doctest::Approx(1.0 / (3 + eps)).epsilon(1e-14));
  CHECK(out[3] == 0.0);
  out = hw4::softmax_forward(inp, mask, 1, 1, 2, to_len, true);
  CHECK(out[0] == doctest::Approx(1.0 / (1 + eps)).epsilon(1e-14));  // row 0 sees column 0 only
  CHECK(out[1] == 0.0);
  CHECK(out[4] == doctest::Approx(1.0 / (2 + eps)).epsilon(1e-14));  // row 1 sees columns 0 and 1
  CHECK(out[5] == doctest::Approx(1.0 / (2 + eps)).epsilon(1e-14));
  CHECK(out[6] == 0.0);
}

TEST_CASE("softmax backward reference: a constant gradient gives zero, and the dot product term") {
  std::vector<float> soft = hw4::softmax_rows({1.f, 2.f, 3.f}, 1, 3);
  CHECK(soft[0] + soft[1] + soft[2] == doctest::Approx(1.0).epsilon(1e-6));
  for (double g : hw4::softmax_backward({0.7f, 0.7f, 0.7f}, soft, 1, 3)) CHECK(std::fabs(g) < 1e-7);
  std::vector<double> g = hw4::softmax_backward({1.f, 0.f, 0.f}, soft, 1, 3);
  CHECK(g[0] == doctest::Approx(soft[0] * (1 - soft[0])));
  CHECK(g[1] == doctest::Approx(-soft[1] * soft[0]));
}

TEST_CASE("layernorm forward reference: statistics, epsilon in vars, normalised rows") {
  const int hidden = 8;
  std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8};
  std::vector<float> gamma(hidden, 2.f), beta(hidden, -1.f);
  const hw4::LayerNormForward f = hw4::layernorm_forward(x, gamma, beta, 1, hidden);
  CHECK(f.means[0] == 4.5);
  CHECK(f.vars[0] == doctest::Approx(5.25 + hw4::kLayerNormEpsilon).epsilon(1e-15));
  double sum = 0, sq = 0;
  for (double y : f.out) sum += (y + 1) / 2, sq += (y + 1) * (y + 1) / 4;
  CHECK(sum / hidden == doctest::Approx(0.0).epsilon(1e-12));
  CHECK(sq / hidden == doctest::Approx(1.0).epsilon(1e-6));
}

TEST_CASE("layernorm backward reference equals a finite difference of the forward") {
  const int hidden = 16;
  hw4::Rng rng(7);
  std::vector<float> x = rng.fill(hidden, -1.f, 1.f), dout = rng.fill(hidden, -1.f, 1.f);
  std::vector<float> gamma = rng.fill(hidden, 0.5f, 1.5f), beta = rng.fill(hidden, -1.f, 1.f);
  std::vector<float> means(1), vars(1);
  hw4::row_statistics(x, 1, hidden, means, vars);
  // The reference takes the float-rounded statistics, as the kernel does; the
  // difference that makes is far below the tolerance here.
  const hw4::LayerNormBackward g = hw4::layernorm_backward(dout, x, gamma, means, vars, 1, hidden);
  for (int i = 0; i < hidden; ++i) {
    INFO("element " << i);
    CHECK(g.dinp[i] == doctest::Approx(numeric_dinp(x, dout, gamma, beta, hidden, i)).epsilon(1e-4));
    CHECK(g.dbeta[i] == dout[i]);  // one row
  }
  const hw4::LayerNormForward f = hw4::layernorm_forward(x, std::vector<float>(hidden, 1.f),
                                                         std::vector<float>(hidden, 0.f), 1, hidden);
  for (int i = 0; i < hidden; ++i) CHECK(g.dgamma[i] == doctest::Approx(f.out[i] * dout[i]).epsilon(1e-6));
}

TEST_CASE("compare: tolerance, NaN and size mismatch fail; digests see every bit") {
  const hw4::Tolerance tol{1e-6, 1e-3};
  CHECK(hw4::compare({1.0f, 2.0f}, {1.0, 2.0015}, tol).ok);
  const hw4::Comparison bad = hw4::compare({1.0f, 2.0f}, {1.0, 2.003}, tol);
  CHECK_FALSE(bad.ok);
  CHECK(bad.failed == 1);
  CHECK(bad.worst_index == 1);
  CHECK_FALSE(hw4::compare({std::nanf("")}, {0.0}, tol).ok);
  CHECK_FALSE(hw4::compare({1.0f}, {1.0, 1.0}, tol).ok);
  CHECK(hw4::fnv1a({}) == 0xcbf29ce484222325ull);
  float one_ulp = std::nextafter(1.0f, 2.0f);
  CHECK(hw4::fnv1a({1.0f}) != hw4::fnv1a({one_ulp}));
  CHECK(hw4::fnv1a({1.0f, 2.0f}) != hw4::fnv1a({2.0f, 1.0f}));
}

TEST_CASE("the planted inputs are the same on every platform") {
  hw4::Rng rng(1);
  std::vector<float> v = rng.fill(1000, -4.f, 4.f);
  for (float x : v) CHECK((x >= -4.f && x < 4.f));
  hw4::Rng again(1);
  CHECK(again.fill(1000, -4.f, 4.f) == v);
  CHECK(hw4::Rng(1).next() == 0x910a2dec89025cc1ull);  // splitmix64's first output for seed 1
}

TEST_CASE("math_constants.h: CUDA's special values by their bits, constants rounded to nearest") {
  auto bits = [](float f) { unsigned u; std::memcpy(&u, &f, 4); return u; };
  CHECK(bits(CUDART_INF_F) == 0x7f800000u);
  CHECK(bits(CUDART_NAN_F) == 0x7fffffffu);
  CHECK(bits(CUDART_NEG_ZERO_F) == 0x80000000u);
  CHECK(CUDART_MAX_NORMAL_F == 3.40282347e38f);
  CHECK(CUDART_PI_F == float(M_PI));
  CHECK(CUDART_L2E_F == float(M_LOG2E));
  CHECK(CUDART_LN2_F == float(M_LN2));
  CHECK(CUDART_SQRT_2_OVER_PI_F == float(M_2_SQRTPI / M_SQRT2));
  CHECK(CUDART_PI == M_PI);
  CHECK(CUDART_L2E == M_LOG2E);
  CHECK(CUDART_LN2 == M_LN2);
  CHECK(std::isnan(CUDART_NAN));
  CHECK(CUDART_INF == HUGE_VAL);
  CHECK(CUDART_TWO_TO_M126_F == std::ldexp(1.0f, -126));
}
