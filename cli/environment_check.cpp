// `SIMT_THREADS=abc simt exec p.cu` would run with SIMT_THREADS ignored, and nothing
// said: only SIMT_OPTIONS configures a run (sim/options/options.inc), SIMT_CATALOG and
// SIMT_CACHE_DIR say where files are, and `simt validate`'s GPU script reads two of its
// own. Any other SIMT_* variable is named in a warning, with the SIMT_OPTIONS spelling
// when it looks like an option.
#include "commands.hpp"

#include "sim/options/options.hpp"

#include <fmt/core.h>

#include <cctype>
#include <string>
#include <string_view>

extern char** environ;

namespace simt::cli {
namespace {

bool read_by_simt(std::string_view name) {
  return name == "SIMT_OPTIONS" || name == "SIMT_CATALOG" || name == "SIMT_CACHE_DIR" ||
         name == "SIMT_VALIDATE_METRICS" || name == "SIMT_VALIDATE_DUMP";  // program/validate_gpu.sh
}

// "SIMT_THREADS" -> "threads" when it is a runtime option's name, else "".
std::string option_named(std::string_view variable) {
  std::string lower;
  for (char c : variable.substr(5)) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const OptionInfo& o : option_table())
    if (lower == o.name) return lower;
  return "";
}

}  // namespace

void warn_unread_environment() {
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string_view entry = *e;
    const auto eq = entry.find('=');
    const std::string_view name = entry.substr(0, eq);
    if (name.substr(0, 5) != "SIMT_" || read_by_simt(name)) continue;
    const std::string option = option_named(name);
    const std::string_view value = eq == std::string_view::npos ? "" : entry.substr(eq + 1);
    if (!option.empty())
      fmt::print(stderr, "simt: warning: {} is not read; runtime options are set in SIMT_OPTIONS: SIMT_OPTIONS={}={}\n",
                 name, option, value);
    else
      fmt::print(stderr, "simt: warning: {} is not read (simt reads SIMT_OPTIONS, SIMT_CATALOG and SIMT_CACHE_DIR)\n",
                 name);
  }
}

}  // namespace simt::cli
