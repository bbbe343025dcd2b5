// Human-readable quantities: the one place that decides how seconds, bytes and
// rates are printed and how sizes typed on the command line are read. Decimal
// prefixes (k, M, G = 1e3, 1e6, 1e9) for rates and FLOPs, as datasheets use them;
// binary (KiB, MiB, GiB) only where the unit says so.
#pragma once
#include <string>

namespace simt::cost {

std::string format_seconds(double s);                          // "1.23 ms"
std::string format_rate(double per_s, const std::string& unit); // "3.35 TB/s", "989 TFLOP/s"
std::string format_count(double n, const std::string& unit);    // "1.07 GB", "2.1 GFLOP"
std::string format_bytes(double bytes);  // "256 MiB" for exact binary sizes, else "1.5 GB"

// "1e9", "4096", "64MiB", "1.5GB", "2G" -> value. Decimal suffixes k/M/G/T(/B),
// binary Ki/Mi/Gi/Ti(/B). Throws std::invalid_argument naming `what` on junk,
// negatives or non-finite values.
double parse_quantity(const std::string& text, const std::string& what);

// "120ms", "0.5s", "30us", "2e-3" (seconds when no unit) -> seconds. Same errors.
double parse_seconds(const std::string& text, const std::string& what);

}  // namespace simt::cost
