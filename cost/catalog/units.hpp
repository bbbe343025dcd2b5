// Human-readable quantities: the one place that decides how seconds, bytes and
// rates are printed. Decimal
// prefixes (k, M, G = 1e3, 1e6, 1e9) for rates and FLOPs, as datasheets use them;
// binary (KiB, MiB, GiB) only where the unit says so.
#pragma once
#include "util/quantity.hpp"

#include <string>

namespace simt::cost {

std::string format_seconds(double s);                          // "1.23 ms"
std::string format_rate(double per_s, const std::string& unit); // "3.35 TB/s", "989 TFLOP/s"
std::string format_count(double n, const std::string& unit);    // "1.07 GB", "2.1 GFLOP"
std::string format_bytes(double bytes);  // "256 MiB" for exact binary sizes, else "1.5 GB"

// Reading quantities typed on the command line lives in util/quantity.hpp.
using simt::parse_quantity;
using simt::parse_seconds;

}  // namespace simt::cost
