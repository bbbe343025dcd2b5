#include "user_defines.hpp"

#include <fmt/format.h>

#include <regex>
#include <sstream>
#include <stdexcept>

namespace simt::cli {
namespace {

// The macro's name: up to '=' or the '(' of a function-like macro.
std::string macro_name(const std::string& d) { return d.substr(0, d.find_first_of("=(")); }

bool configures_headers(const std::string& name) { return name == "NDEBUG" || name.front() == '_'; }

}  // namespace

UserDefines split_user_defines(const std::vector<std::string>& defines) {
  UserDefines out;
  for (const std::string& d : defines) {
    const std::string name = macro_name(d);
    if (name.empty()) throw std::invalid_argument(fmt::format("-D {}: expected NAME or NAME=VALUE", d));
    if (d.find_first_of("\n\r") != std::string::npos)
      throw std::invalid_argument(fmt::format("-D {}: a macro's value is one line", name));
    if (configures_headers(name)) {
      out.flags.push_back("-D" + d);
      continue;
    }
    out.names.push_back(name);
    const auto eq = d.find('=');
    // `-D N` is `#define N 1`, as the compiler's own -D.
    out.unit_lines += eq == std::string::npos ? fmt::format("#define {} 1\n", d)
                                              : fmt::format("#define {} {}\n", d.substr(0, eq), d.substr(eq + 1));
  }
  return out;
}

std::string shield_includes(const std::string& text, const std::string& file, const UserDefines& defines,
                            const std::filesystem::path& include_dir) {
  if (defines.names.empty()) return text;
  static const std::regex include(R"re(^[ \t]*#[ \t]*include[ \t]*(<([^>]+)>|"([^"]+)"))re");
  const std::filesystem::path beside = std::filesystem::path(file).parent_path();
  std::string out, line;
  std::istringstream in(text);
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    std::smatch m;
    std::error_code ec;
    // <H>, or "H" not beside the file (the compiler looks beside it first): simtlab's when it is in include_dir.
    const bool quoted = std::regex_search(line, m, include) && m[3].matched;
    const std::string header = m.empty() ? "" : quoted ? m[3].str() : m[2].str();
    if (header.empty() || !std::filesystem::is_regular_file(include_dir / header, ec) ||
        (quoted && std::filesystem::exists(beside / header, ec))) {
      out += line + "\n";
      continue;
    }
    for (const std::string& n : defines.names) out += fmt::format("#pragma push_macro(\"{}\")\n#undef {}\n", n, n);
    out += line + "\n";
    for (const std::string& n : defines.names) out += fmt::format("#pragma pop_macro(\"{}\")\n", n);
    out += fmt::format("#line {} \"{}\"\n", number + 1, file);
  }
  return out;
}

}  // namespace simt::cli
