#include "cost/catalog/units.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <stdexcept>
#include <string_view>

namespace simt::cost {
namespace {

struct Scaled { double value; const char* prefix; };

Scaled decimal(double v) {
  static const Scaled steps[] = {{1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
  for (const Scaled& s : steps)
    if (std::fabs(v) >= s.value) return {v / s.value, s.prefix};
  return {v, ""};
}

}  // namespace

std::string format_seconds(double s) {
  if (!std::isfinite(s)) return "inf";
  double a = std::fabs(s);
  if (a == 0) return "0 s";
  if (a < 1e-6) return fmt::format("{:.3g} ns", s * 1e9);
  if (a < 1e-3) return fmt::format("{:.3g} us", s * 1e6);
  if (a < 1) return fmt::format("{:.3g} ms", s * 1e3);
  if (a < 100) return fmt::format("{:.3g} s", s);
  if (a < 3600) return fmt::format("{:.0f} s", s);
  if (a < 86400 * 2) return fmt::format("{:.3g} h", s / 3600);
  return fmt::format("{:.3g} days", s / 86400);
}

std::string format_count(double n, const std::string& unit) {
  Scaled d = decimal(n);
  return fmt::format("{:.4g} {}{}", d.value, d.prefix, unit);
}

std::string format_rate(double per_s, const std::string& unit) { return format_count(per_s, unit); }

std::string format_bytes(double bytes) {
  // Sizes people typed in binary units (256MiB, 1GiB) print back that way;
  // everything else in decimal, as datasheets do.
  static const char* binary[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = bytes;
  int k = -1;
  while (v >= 1024 && std::fmod(v, 1024) == 0 && k < 4) {
    v /= 1024;
    ++k;
  }
  if (k >= 0 && v < 1024) return fmt::format("{:g} {}", v, binary[k]);
  return format_count(bytes, "B");
}

}  // namespace simt::cost
