// Planted inputs, comparison with a reference and output digests for the HW4 driver
// (hw4_driver.cu) and its CI test (test_hw4_reference.cpp). Host code only.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace hw4 {

// splitmix64: the same sequence on every platform, so the nvcc build and the
// simulator's build plant the same inputs.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // 24 random bits scaled into [lo, hi): exact in float.
  float uniform(float lo, float hi) { return lo + (hi - lo) * (float(next() >> 40) * 0x1p-24f); }
  std::vector<float> fill(std::size_t n, float lo, float hi) {
    std::vector<float> v(n);
    for (float& x : v) x = uniform(lo, hi);
    return v;
  }

 private:
  uint64_t state_;
};

// FNV-1a over the bytes of the floats: equal digests mean bit-identical outputs.
inline uint64_t fnv1a(const std::vector<float>& v) {
  uint64_t h = 0xcbf29ce484222325ull;
  const auto* p = reinterpret_cast<const unsigned char*>(v.data());
  for (std::size_t i = 0; i < v.size() * sizeof(float); ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

struct Tolerance {
  double atol, rtol;
};

struct Comparison {
  bool ok = true;
  double max_abs_err = 0;    // the largest |out - ref|
  std::size_t worst_index = 0;
  std::size_t failed = 0;    // elements outside atol + rtol * |ref| (NaN included)
};

inline Comparison compare(const std::vector<float>& out, const std::vector<double>& ref, Tolerance tol) {
  Comparison c;
  if (out.size() != ref.size()) {
    c.ok = false;
    c.failed = out.size() > ref.size() ? out.size() : ref.size();
    return c;
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    const double err = std::fabs(double(out[i]) - ref[i]);
    if (!(err <= tol.atol + tol.rtol * std::fabs(ref[i]))) ++c.failed;  // NaN fails
    if (!(err <= c.max_abs_err)) {
      c.max_abs_err = err;
      c.worst_index = i;
    }
  }
  c.ok = c.failed == 0;
  return c;
}

}  // namespace hw4
