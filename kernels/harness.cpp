#include "kernels/harness.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace simt::kernels {

namespace {
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t prev = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t cur = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] != b[j - 1])});
      prev = cur;
    }
  }
  return row[b.size()];
}
}  // namespace

long long Params::integer(const std::string& name) const {
  const std::string& v = text(name);
  std::size_t used = 0;
  long long x = 0;
  try {
    x = std::stoll(v, &used, 0);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != v.size() || v.empty())
    throw std::invalid_argument("parameter --" + name + " must be an integer, got '" + v + "'");
  return x;
}

double Params::real(const std::string& name) const {
  const std::string& v = text(name);
  std::size_t used = 0;
  double x = 0;
  try {
    x = std::stod(v, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != v.size() || v.empty())
    throw std::invalid_argument("parameter --" + name + " must be a number, got '" + v + "'");
  return x;
}

const std::string& Params::text(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw std::invalid_argument("missing parameter --" + name);
  return it->second;
}

const Buffer& Outputs::at(const std::string& name) const {
  for (const Buffer& b : buffers)
    if (b.name == name) return b;
  throw std::out_of_range("no output buffer named " + name);
}

std::vector<KernelSpec>& registry() {
  static std::vector<KernelSpec> kernels;
  return kernels;
}

const KernelSpec& find_kernel(const std::string& name) {
  const KernelSpec* best = nullptr;
  std::size_t best_d = SIZE_MAX;
  for (const KernelSpec& k : registry()) {
    if (k.name == name) return k;
    std::size_t d = edit_distance(name, k.name);
    if (d < best_d) best_d = d, best = &k;
  }
  std::string msg = "unknown kernel '" + name + "'";
  if (best && best_d <= std::max<std::size_t>(3, name.size() / 2)) msg += "; did you mean '" + best->name + "'?";
  throw std::invalid_argument(msg + " (simt list shows them all)");
}

Params with_defaults(const KernelSpec& k, std::map<std::string, std::string> given) {
  std::map<std::string, std::string> all;
  for (const Param& p : k.params) all[p.name] = p.default_value;
  for (auto& [name, value] : given) {
    if (!all.count(name)) {
      std::string known;
      for (const Param& p : k.params) known += (known.empty() ? "" : ", ") + ("--" + p.name);
      throw std::invalid_argument("kernel " + k.name + " has no parameter --" + name +
                                  (known.empty() ? std::string(" (it takes none)") : " (it takes " + known + ")"));
    }
    all[name] = value;
  }
  return Params(std::move(all));
}

std::vector<float> test_values(std::size_t n, std::uint32_t seed) {
  std::vector<float> v(n);
  std::uint32_t x = seed * 2654435761u + 12345u;
  for (float& f : v) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    f = static_cast<float>(x % 128) / 64.0f - 1.0f;
  }
  return v;
}

Check compare(const std::vector<float>& got, const std::vector<float>& want, double tolerance,
              const std::string& what) {
  Check c;
  c.tolerance = tolerance;
  if (got.size() != want.size()) {
    c.detail = what + ": size " + std::to_string(got.size()) + " != expected " + std::to_string(want.size());
    return c;
  }
  std::size_t worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    double e = std::fabs(double(got[i]) - double(want[i]));
    if (std::isnan(e)) e = INFINITY;
    if (e > c.max_abs_err) c.max_abs_err = e, worst = i;
  }
  c.ok = c.max_abs_err <= tolerance;
  c.detail = what + ": " + std::to_string(got.size()) + " values, max |error| " + std::to_string(c.max_abs_err) +
             (got.empty() ? "" : " at index " + std::to_string(worst) + " (got " + std::to_string(got[worst]) +
                                      ", want " + std::to_string(want[worst]) + ")");
  return c;
}

}  // namespace simt::kernels
