// Accuracy of sim/cuda/portable_math.hpp against the correctly rounded result (the
// double-precision C library result; its error is far below float's ulp), over a
// sweep of float bit patterns. The measured maxima are the bounds documented in
// docs/dialect.md; a change that worsens one fails here.
#include "sim/cuda/portable_math.hpp"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>

namespace {

float from_bits(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// Error of `got` in units of the float ulp at the exact value `want`.
double ulp_error(float got, double want) {
  if (std::isnan(want)) return std::isnan(got) ? 0 : INFINITY;
  if (std::isinf(want) || std::fabs(want) > std::numeric_limits<float>::max())
    return (std::isinf(got) && (got > 0) == (want > 0)) ? 0 : INFINITY;
  int e;
  std::frexp(std::fabs(want), &e);
  double ulp = std::ldexp(1.0, std::max(e - 24, -149));  // subnormal ulp below 2^-126
  return std::fabs(double(got) - want) / ulp;
}

struct Sweep {
  double max_ulp = 0;
  float worst = 0;
};

// Every `stride`-th bit pattern of both signs inside [lo, hi].
Sweep sweep(const std::function<float(float)>& f, const std::function<double(double)>& ref, float lo, float hi,
            std::uint32_t stride = 613) {
  Sweep s;
  for (std::uint64_t u = 0; u < 0x7f800000u; u += stride) {
    for (std::uint32_t sign : {0u, 0x80000000u}) {
      float x = from_bits(static_cast<std::uint32_t>(u) | sign);
      if (x < lo || x > hi) continue;
      double e = ulp_error(f(x), ref(x));
      if (e > s.max_ulp) s = {e, x};
    }
  }
  return s;
}

void report(const char* name, const Sweep& s) {
  MESSAGE(fmt::format("{}: max {:.2f} ulp (at x = {:a})", name, s.max_ulp, s.worst));
}

float as_float(const f32& x) { return x; }

}  // namespace

TEST_CASE("portable expf/__expf: max error 1 ulp over the whole float range") {
  Sweep s = sweep([](float x) { return as_float(simt::expf(x)); }, [](double x) { return std::exp(x); }, -200.f, 200.f);
  report("expf", s);
  CHECK(s.max_ulp <= 1.0);
  CHECK(as_float(simt::__expf(1.5f)) == as_float(simt::expf(1.5f)));
}

TEST_CASE("portable logf: max error 1 ulp, subnormals included") {
  Sweep s = sweep([](float x) { return as_float(simt::logf(x)); }, [](double x) { return std::log(x); }, 0.f, 3.4e38f);
  report("logf", s);
  CHECK(s.max_ulp <= 1.0);
  CHECK(std::isnan(as_float(simt::logf(-1.f))));
  CHECK(as_float(simt::logf(0.f)) == -INFINITY);
  CHECK(as_float(simt::logf(INFINITY)) == INFINITY);
}

TEST_CASE("portable tanhf: max error 2 ulp") {
  Sweep s = sweep([](float x) { return as_float(simt::tanhf(x)); }, [](double x) { return std::tanh(x); }, -3e38f, 3e38f);
  report("tanhf", s);
  CHECK(s.max_ulp <= 2.0);
}

TEST_CASE("portable erff: max error 2 ulp") {
  Sweep s = sweep([](float x) { return as_float(simt::erff(x)); }, [](double x) { return std::erf(x); }, -3e38f, 3e38f);
  report("erff", s);
  CHECK(s.max_ulp <= 2.0);
}

TEST_CASE("portable rsqrtf: max error 1 ulp, subnormals included") {
  Sweep s = sweep([](float x) { return as_float(simt::rsqrtf(x)); }, [](double x) { return 1.0 / std::sqrt(x); }, 0.f,
                  3.4e38f);
  report("rsqrtf", s);
  CHECK(s.max_ulp <= 1.0);
  CHECK(as_float(simt::rsqrtf(0.f)) == INFINITY);
  CHECK(as_float(simt::rsqrtf(INFINITY)) == 0.f);
}

TEST_CASE("portable __fdividef: max error 1.25 ulp (1 for normal results) for 2^-126 <= |b| <= 2^126") {
  Sweep s;
  for (float b : {3.0f, -7.25f, 1e-30f, 1.1e37f, 0.1f, 0x1p-126f, -0x1p126f}) {
    Sweep t = sweep([b](float a) { return as_float(simt::__fdividef(a, b)); }, [b](double a) { return a / b; }, -1e30f,
                    1e30f, 4099);
    if (t.max_ulp > s.max_ulp) s = t;
  }
  report("__fdividef", s);
  CHECK(s.max_ulp <= 1.25);
  CHECK(as_float(simt::__fdividef(1.f, 0.f)) == INFINITY);
  CHECK(as_float(simt::__fdividef(1.f, -INFINITY)) == 0.f);
}
