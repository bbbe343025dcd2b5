#include "util/quantity.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <stdexcept>
#include <string_view>

namespace simt {

double parse_quantity(const std::string& text, const std::string& what) {
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    throw std::invalid_argument(fmt::format("{}: '{}' is not a number", what, text));
  }
  std::string suffix = text.substr(used);
  if (!suffix.empty() && (suffix.back() == 'B' || suffix.back() == 'b')) suffix.pop_back();
  double scale = 1;
  if (!suffix.empty()) {
    bool binary = suffix.size() == 2 && (suffix[1] == 'i' || suffix[1] == 'I');
    if (suffix.size() > (binary ? 2u : 1u))
      throw std::invalid_argument(fmt::format("{}: unknown unit in '{}'", what, text));
    const std::string_view prefixes = "KMGTP";
    auto p = prefixes.find(static_cast<char>(std::toupper(static_cast<unsigned char>(suffix[0]))));
    if (p == std::string_view::npos)
      throw std::invalid_argument(fmt::format("{}: unknown unit in '{}' (use k, M, G, T, Ki, Mi, Gi)", what, text));
    scale = std::pow(binary ? 1024.0 : 1000.0, static_cast<double>(p + 1));
  }
  v *= scale;
  if (!std::isfinite(v) || v < 0)
    throw std::invalid_argument(fmt::format("{} must be a finite number >= 0, got '{}'", what, text));
  return v;
}

double parse_seconds(const std::string& text, const std::string& what) {
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    throw std::invalid_argument(fmt::format("{}: '{}' is not a time", what, text));
  }
  const std::string unit = text.substr(used);
  double scale = 0;
  if (unit.empty() || unit == "s") scale = 1;
  else if (unit == "ms") scale = 1e-3;
  else if (unit == "us") scale = 1e-6;
  else if (unit == "ns") scale = 1e-9;
  else if (unit == "min") scale = 60;
  else if (unit == "h") scale = 3600;
  else throw std::invalid_argument(fmt::format("{}: unknown time unit in '{}' (use s, ms, us, ns, min, h)", what, text));
  v *= scale;
  if (!std::isfinite(v) || v < 0)
    throw std::invalid_argument(fmt::format("{} must be a finite time >= 0, got '{}'", what, text));
  return v;
}

long long parse_count(const std::string& text, const std::string& what, long long lo, long long hi) {
  const auto range = [&] { return hi == lo ? fmt::format("{}", lo) : fmt::format("from {} to {}", lo, hi); };
  // Hexadecimal first (stod would read "0x100" too, but as a double).
  std::size_t used = 0;
  long long hex = 0;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    try {
      hex = std::stoll(text, &used, 16);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != text.size()) throw std::invalid_argument(fmt::format("{}: '{}' is not a whole number", what, text));
    if (hex < lo || hex > hi) throw std::invalid_argument(fmt::format("{} must be {}, got {}", what, range(), text));
    return hex;
  }
  if (!text.empty() && text[0] == '-') {
    std::size_t n = 0;
    double v = 0;
    try {
      v = std::stod(text, &n);
    } catch (const std::exception&) {
      n = 0;
    }
    if (n != text.size() || v != std::floor(v))
      throw std::invalid_argument(fmt::format("{}: '{}' is not a whole number", what, text));
    if (v < static_cast<double>(lo) || v > static_cast<double>(hi))
      throw std::invalid_argument(fmt::format("{} must be {}, got {}", what, range(), text));
    return static_cast<long long>(v);
  }
  const double v = parse_quantity(text, what);
  if (v != std::floor(v)) throw std::invalid_argument(fmt::format("{} must be a whole number, got '{}'", what, text));
  if (v < static_cast<double>(lo) || v > static_cast<double>(hi))
    throw std::invalid_argument(fmt::format("{} must be {}, got {}", what, range(), text));
  return static_cast<long long>(v);
}

}  // namespace simt
