// The runtime options of a run (sim/options/options.inc) as the commands that run
// code see them: the defaults, then $SIMT_OPTIONS, then the command's flags. `simt
// exec` hands the result to the program it runs in $SIMT_OPTIONS, and nothing else;
// `simt run`, which runs kernels in its own process, uses it there.
#pragma once
#include "sim/options/options.hpp"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace simt::cli {

// A flag as the table spells it: {"--no-races", "races", "off"}.
struct OptionItem {
  std::string flag, option, value;
};
using OptionItems = std::vector<OptionItem>;

// `base` (this process's $SIMT_OPTIONS) with `flags` over it. A value the option does
// not take throws std::invalid_argument naming it.
Options with_flags(Options base, const OptionItems& flags);

// Puts `o` in this process's environment as $SIMT_OPTIONS, for the programs it starts
// (the compiler pass inside clang, the simulated program).
void export_options(const Options& o);

// The pass_* options' text: what changes a build (cli/program_build.cpp's cache key).
std::string pass_options_text(const Options& o);

// Every option of the table with its default and help, for `simt help exec`.
std::string options_help();

// The flag `name` if it was given on the command line: its value, as the table reads it.
void add_if_given(OptionItems& items, const CLI::App* cmd, const std::string& flag, const std::string& option,
                  const std::string& value);

}  // namespace simt::cli
