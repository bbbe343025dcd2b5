// simtlab's runtime options: the table of sim/options/options.inc as one struct,
// parsed from one text ("races=always:threads=4", the syntax of ASAN_OPTIONS: items
// separated by colons or blanks, a value in '...' or "..." may hold either), typed
// and checked: a value an option does not take is an error naming the option and
// what it takes, never a silent default.
//
// Header-only, C++17 and free of simtlab's other headers: the simulator, the CLI,
// the compiler pass (a clang plugin) and the GPU side's preload, built by nvcc
// (program/gpu_launch_digest.cpp), all include it.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace simt {

// The one variable a run reads its options from.
constexpr const char* kOptionsVariable = "SIMT_OPTIONS";

enum class RaceChecks { off, on, always };
enum class SkipRepeats { defer, pure, all, none };
enum class ReportKind { none, tables };

// The kinds of option value: each has its C++ type, a parser (false: not a value of
// the kind), the text of a value (which the parser reads back), and what it accepts.
namespace option_kind {

struct Flag {
  using type = bool;
  static std::string accepts() { return "0, 1, true or false"; }
  static bool parse(std::string_view s, type& v) {
    if (s == "1" || s == "true") return v = true, true;
    if (s == "0" || s == "false") return v = false, true;
    return false;
  }
  static std::string text(type v) { return v ? "1" : "0"; }
};

// Decimal digits only: "-1" or "4k" must not become some other number.
struct Count {
  using type = std::uint64_t;
  static std::string accepts() { return "a whole number, 0 or more"; }
  static bool parse(std::string_view s, type& v) {
    if (s.empty() || s.size() > 20) return false;
    type n = 0;
    for (char c : s) {
      if (c < '0' || c > '9') return false;
      const type d = type(c - '0');
      if (n > (UINT64_MAX - d) / 10) return false;
      n = n * 10 + d;
    }
    return v = n, true;
  }
  static std::string text(type v) { return std::to_string(v); }
};

struct Positive {
  using type = std::uint64_t;
  static std::string accepts() { return "a whole number above 0"; }
  static bool parse(std::string_view s, type& v) {
    type n = 0;
    if (!Count::parse(s, n) || n == 0) return false;
    return v = n, true;
  }
  static std::string text(type v) { return std::to_string(v); }
};

struct Seconds {
  using type = double;
  static std::string accepts() { return "a positive number of seconds"; }
  static bool parse(std::string_view s, type& v) {
    const std::string str(s);
    char* end = nullptr;
    const double x = str.empty() ? 0 : std::strtod(str.c_str(), &end);
    if (str.empty() || *end || !std::isfinite(x) || !(x > 0)) return false;
    return v = x, true;
  }
  // The shortest text that reads back as the same double.
  static std::string text(type v) {
    char buf[40];
    for (int digits = 6; digits <= 17; ++digits) {
      std::snprintf(buf, sizeof buf, "%.*g", digits, v);
      if (std::strtod(buf, nullptr) == v) break;
    }
    return buf;
  }
};

struct Path {
  using type = std::string;
  static std::string accepts() { return "a path (empty: none)"; }
  static bool parse(std::string_view s, type& v) { return v = std::string(s), true; }
  static std::string text(const type& v) { return v; }
};

struct Name {
  using type = std::string;
  static std::string accepts() { return "a name"; }
  static bool parse(std::string_view s, type& v) { return !s.empty() && (v = std::string(s), true); }
  static std::string text(const type& v) { return v; }
};

// An enumeration: `names` in the order of the enum's values.
template <class E, class Names>
struct Enum {
  using type = E;
  static std::string accepts() {
    std::string out;
    const std::size_t n = std::size(Names::names);
    for (std::size_t i = 0; i < n; ++i) out += (i == 0 ? "" : i + 1 == n ? " or " : ", ") + std::string(Names::names[i]);
    return out;
  }
  static bool parse(std::string_view s, type& v) {
    for (std::size_t i = 0; i < std::size(Names::names); ++i)
      if (s == Names::names[i]) return v = static_cast<E>(i), true;
    return false;
  }
  static std::string text(type v) { return Names::names[static_cast<std::size_t>(v)]; }
};
struct RaceNames {
  static constexpr const char* names[] = {"off", "on", "always"};
};
struct RepeatNames {
  static constexpr const char* names[] = {"defer", "pure", "all", "none"};
};
struct ReportNames {
  static constexpr const char* names[] = {"none", "tables"};
};
using Races = Enum<RaceChecks, RaceNames>;
using Repeats = Enum<SkipRepeats, RepeatNames>;
using Report = Enum<ReportKind, ReportNames>;

}  // namespace option_kind

// Every option of options.inc, at its default.
struct Options {
#define SIMT_OPTION(kind, name, default_value, help) option_kind::kind::type name = default_value;
#include "sim/options/options.inc"
#undef SIMT_OPTION
};

// One row of the table, for parsing by name and for help.
struct OptionInfo {
  const char* name;
  const char* help;
  std::string default_text;
  std::string (*accepts)();
  std::string (*get)(const Options&);
  bool (*set)(Options&, std::string_view);  // false: not a value of the option's kind
};

inline const std::vector<OptionInfo>& option_table() {
  static const std::vector<OptionInfo> table = {
#define SIMT_OPTION(kind, name, default_value, help)                                         \
  OptionInfo{#name, help, option_kind::kind::text(default_value), &option_kind::kind::accepts, \
             [](const Options& o) { return option_kind::kind::text(o.name); },               \
             [](Options& o, std::string_view s) { return option_kind::kind::parse(s, o.name); }},
#include "sim/options/options.inc"
#undef SIMT_OPTION
  };
  return table;
}

namespace option_text {

inline bool separator(char c) { return c == ':' || c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

inline std::string known_names() {
  std::string out;
  for (const OptionInfo& o : option_table()) out += (out.empty() ? "" : ", ") + std::string(o.name);
  return out;
}

}  // namespace option_text

// Sets option `name` from its text; returns the error ("" when none): the option is
// unknown, or the value is not one it takes.
inline std::string set_option(Options& into, std::string_view name, std::string_view value) {
  for (const OptionInfo& o : option_table())
    if (name == o.name) {
      if (o.set(into, value)) return "";
      return std::string(name) + "=" + std::string(value) + ": " + std::string(name) + " takes " + o.accepts();
    }
  return "no option '" + std::string(name) + "' (options: " + option_text::known_names() + ")";
}

// Applies the items of `text` to `into`, left to right (a later item wins). Returns
// the first error ("" when none), naming the item, the option and what it accepts.
inline std::string parse_options(std::string_view text, Options& into) {
  std::size_t i = 0;
  while (i < text.size()) {
    if (option_text::separator(text[i])) {
      ++i;
      continue;
    }
    const std::size_t start = i;
    while (i < text.size() && text[i] != '=' && !option_text::separator(text[i])) ++i;
    const std::string name(text.substr(start, i - start));
    if (i >= text.size() || text[i] != '=')
      return "'" + name + "' is not name=value (options: " + option_text::known_names() + ")";
    ++i;
    std::string value;
    if (i < text.size() && (text[i] == '\'' || text[i] == '"')) {
      const char quote = text[i++];
      const std::size_t close = text.find(quote, i);
      if (close == std::string_view::npos) return name + "=" + std::string(text.substr(i - 1)) + ": the quote is not closed";
      value = std::string(text.substr(i, close - i));
      i = close + 1;
    } else {
      const std::size_t begin = i;
      while (i < text.size() && !option_text::separator(text[i])) ++i;
      value = std::string(text.substr(begin, i - begin));
    }
    if (std::string error = set_option(into, name, value); !error.empty()) return error;
  }
  return "";
}

// The options that differ from their defaults, as text parse_options reads back.
// A value with a separator or a quote is quoted; one with both kinds of quote cannot
// be written, and stops the process rather than pass on another value.
inline std::string format_options(const Options& o) {
  const Options defaults;
  std::string out;
  for (const OptionInfo& info : option_table()) {
    const std::string value = info.get(o);
    if (value == info.get(defaults)) continue;
    bool plain = !value.empty();
    for (char c : value) plain = plain && !option_text::separator(c) && c != '\'' && c != '"';
    const char quote = value.find('\'') == std::string::npos ? '\'' : '"';
    if (!plain && value.find(quote) != std::string::npos) {
      std::fprintf(stderr, "simt: %s=%s: a value cannot hold both ' and \"\n", info.name, value.c_str());
      std::exit(2);
    }
    out += (out.empty() ? "" : ":") + std::string(info.name) + "=" + (plain ? value : quote + value + quote);
  }
  return out;
}

// The options of $SIMT_OPTIONS. A bad value stops the process with the error on
// stderr (exit 2, a usage error): running with some other value than the one asked
// for would make every number that follows a lie.
inline Options options_from_environment() {
  Options o;
  if (const char* text = std::getenv(kOptionsVariable)) {
    const std::string error = parse_options(text, o);
    if (!error.empty()) {
      std::fprintf(stderr, "simt: $%s: %s\n", kOptionsVariable, error.c_str());
      std::exit(2);
    }
  }
  return o;
}

}  // namespace simt
