#include "kernels/harness.hpp"

#include "util/near_miss.hpp"
#include "util/quantity.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace simt::kernels {

long long Params::integer(const std::string& name, long long lo, long long hi) const {
  return parse_count(text(name), "parameter --" + name, lo, hi);
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
  std::vector<std::string> names;
  for (const KernelSpec& k : registry()) {
    if (k.name == name) return k;
    names.push_back(k.name);
  }
  throw std::invalid_argument(unknown_name_message("kernel", name, names, "simt list"));
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
