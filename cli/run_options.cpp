#include "run_options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

namespace simt::cli {

Options with_flags(Options base, const OptionItems& flags) {
  for (const OptionItem& f : flags)
    if (std::string error = set_option(base, f.option, f.value); !error.empty())
      throw std::invalid_argument(fmt::format("{} {}: {}", f.flag, f.value, error));
  return base;
}

void export_options(const Options& o) { setenv(kOptionsVariable, format_options(o).c_str(), 1); }

std::string pass_options_text(const Options& o) {
  std::string text;
  for (const OptionInfo& info : option_table())
    if (std::string_view(info.name).substr(0, 5) == "pass_") text += fmt::format("{}={};", info.name, info.get(o));
  return text;
}

std::string options_help() {
  std::string out =
      "Runtime options: SIMT_OPTIONS=\"name=value:name=value\" (colons or blanks between items; a value may be "
      "quoted); the flags above override them. name=default:\n";
  std::size_t width = 0;
  for (const OptionInfo& o : option_table()) width = std::max(width, std::string(o.name).size() + 1 + o.default_text.size());
  for (const OptionInfo& o : option_table())
    out += fmt::format("  {:<{}}  {}\n", fmt::format("{}={}", o.name, o.default_text), width, o.help);
  return out;
}

void add_if_given(OptionItems& items, const CLI::App* cmd, const std::string& flag, const std::string& option,
                  const std::string& value) {
  if (cmd->get_option(flag)->count() > 0) items.push_back({flag, option, value});
}

}  // namespace simt::cli
