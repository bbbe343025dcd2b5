// `simt exec --timeout 5 p.cu`: CLI11 would take "5" as the file and say "File does
// not exist: 5", hiding the real mistake. Checking every option name against the
// command it follows, before CLI11 parses, names the unknown option instead.
#include "commands.hpp"

#include "util/near_miss.hpp"

#include <fmt/format.h>

#include <cctype>
#include <stdexcept>
#include <string>
#include <vector>

namespace simt::cli {
namespace {

// "--timeout=5" -> "--timeout", "-DN=64" -> "-D"; "" for what is no option name
// ("-5", "-1.5e3" and "-" are values).
std::string option_name(const std::string& arg) {
  if (arg.size() < 2 || arg[0] != '-') return "";
  if (arg[1] == '-') return arg.size() > 2 ? arg.substr(0, arg.find('=')) : "";
  const unsigned char c = static_cast<unsigned char>(arg[1]);
  if (std::isdigit(c) || c == '.') return "";
  return arg.substr(0, 2);
}

std::vector<std::string> option_names(const CLI::App& cmd) {
  std::vector<std::string> names;
  for (const CLI::Option* o : cmd.get_options()) {
    for (const std::string& l : o->get_lnames()) names.push_back("--" + l);
    for (const std::string& s : o->get_snames()) names.push_back("-" + s);
  }
  return names;
}

// "simt budget train", for the message and its --help hint.
std::string command_path(const CLI::App& cmd) {
  std::string path;
  for (const CLI::App* a = &cmd; a != nullptr; a = a->get_parent())
    path = a->get_parent() == nullptr ? "simt" + path : " " + a->get_name() + path;
  return path;
}

}  // namespace

void reject_unknown_options(CLI::App& app, int argc, char** argv) {
  CLI::App* cmd = &app;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--" || cmd->get_allow_extras()) return;  // the program's arguments; `simt run`'s kernel parameters
    if (arg.empty() || arg[0] != '-') {
      const auto subs = cmd->get_subcommands([&](CLI::App* s) { return s->check_name(arg); });
      if (!subs.empty()) cmd = subs.front();
      continue;
    }
    const std::string name = option_name(arg);
    if (name.empty() || cmd->get_option_no_throw(name) != nullptr) continue;
    const std::string path = command_path(*cmd);
    const auto near = near_misses(name, option_names(*cmd));
    const std::string guess = near.empty() ? "" : fmt::format("; did you mean {}?", fmt::join(near, " or "));
    throw std::invalid_argument(
        fmt::format("unknown option {} of {}{} (`{} --help` lists its options)", name, path, guess, path));
  }
}

}  // namespace simt::cli
