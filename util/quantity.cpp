#include "util/quantity.hpp"

#include "util/text.hpp"

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
    throw std::invalid_argument(concat(what, ": '", text, "' is not a number"));
  }
  std::string suffix = text.substr(used);
  if (!suffix.empty() && (suffix.back() == 'B' || suffix.back() == 'b')) suffix.pop_back();
  double scale = 1;
  if (!suffix.empty()) {
    bool binary = suffix.size() == 2 && (suffix[1] == 'i' || suffix[1] == 'I');
    if (suffix.size() > (binary ? 2u : 1u))
      throw std::invalid_argument(concat(what, ": unknown unit in '", text, "'"));
    const std::string_view prefixes = "KMGTP";
    auto p = prefixes.find(static_cast<char>(std::toupper(static_cast<unsigned char>(suffix[0]))));
    if (p == std::string_view::npos)
      throw std::invalid_argument(concat(what, ": unknown unit in '", text, "' (use k, M, G, T, Ki, Mi, Gi)"));
    scale = std::pow(binary ? 1024.0 : 1000.0, static_cast<double>(p + 1));
  }
  v *= scale;
  if (!std::isfinite(v) || v < 0)
    throw std::invalid_argument(concat(what, " must be a finite number >= 0, got '", text, "'"));
  return v;
}

double parse_seconds(const std::string& text, const std::string& what) {
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    throw std::invalid_argument(concat(what, ": '", text, "' is not a time"));
  }
  const std::string unit = text.substr(used);
  double scale = 0;
  if (unit.empty() || unit == "s") scale = 1;
  else if (unit == "ms") scale = 1e-3;
  else if (unit == "us") scale = 1e-6;
  else if (unit == "ns") scale = 1e-9;
  else if (unit == "min") scale = 60;
  else if (unit == "h") scale = 3600;
  else throw std::invalid_argument(concat(what, ": unknown time unit in '", text, "' (use s, ms, us, ns, min, h)"));
  v *= scale;
  if (!std::isfinite(v) || v < 0)
    throw std::invalid_argument(concat(what, " must be a finite time >= 0, got '", text, "'"));
  return v;
}

long long parse_count(const std::string& text, const std::string& what, long long lo, long long hi) {
  const auto range = [&] { return hi == lo ? concat(lo) : concat("from ", lo, " to ", hi); };
  // Hexadecimal first (stod would read "0x100" too, but as a double).
  std::size_t used = 0;
  long long hex = 0;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    try {
      hex = std::stoll(text, &used, 16);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != text.size()) throw std::invalid_argument(concat(what, ": '", text, "' is not a whole number"));
    if (hex < lo || hex > hi) throw std::invalid_argument(concat(what, " must be ", range(), ", got ", text));
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
      throw std::invalid_argument(concat(what, ": '", text, "' is not a whole number"));
    if (v < static_cast<double>(lo) || v > static_cast<double>(hi))
      throw std::invalid_argument(concat(what, " must be ", range(), ", got ", text));
    return static_cast<long long>(v);
  }
  const double v = parse_quantity(text, what);
  if (v != std::floor(v)) throw std::invalid_argument(concat(what, " must be a whole number, got '", text, "'"));
  if (v < static_cast<double>(lo) || v > static_cast<double>(hi))
    throw std::invalid_argument(concat(what, " must be ", range(), ", got ", text));
  return static_cast<long long>(v);
}

}  // namespace simt
