// The options every command that builds a user's CUDA file takes (exec, cc,
// validate): -I, -D.
#pragma once
#include "program_build.hpp"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace simt::cli {

struct CompileArgs {
  std::vector<std::string> include_dirs, defines;
};

void add_compile_options(CLI::App* cmd, CompileArgs& c);
// `more_sources`: the program's other sources (simt exec main.cpp kernels.cu).
BuildRequest build_request(const std::string& file, bool shared, const CompileArgs& c,
                           const std::vector<std::string>& more_sources = {});

}  // namespace simt::cli
