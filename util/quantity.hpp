// Reading quantities a person types: the one parser behind every size, count and
// time option of `simt` and every kernel parameter, so "2k", "64MiB" and "1e9" mean
// the same everywhere. Decimal suffixes k/M/G/T/P (1e3...), binary Ki/Mi/Gi/Ti/Pi
// (1024...), an optional trailing B. Every error is std::invalid_argument naming
// `what` and the text; nothing wraps, nothing defaults silently.
#pragma once
#include <string>

namespace simt {

// "1e9", "4096", "64MiB", "1.5GB", "2G" -> value. Junk, negatives, non-finite: error.
double parse_quantity(const std::string& text, const std::string& what);

// "120ms", "0.5s", "30us", "2e-3" (seconds when no unit) -> seconds. Same errors.
double parse_seconds(const std::string& text, const std::string& what);

// A whole number in [lo, hi]: "256", "2k", "1Mi", "0x100", "1e6". Fractions,
// values out of range (no wrap-around: 4294967297 is refused, not 1) and junk are
// errors that say which range is allowed.
long long parse_count(const std::string& text, const std::string& what, long long lo, long long hi);

}  // namespace simt
