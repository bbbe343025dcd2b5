#include "compile_options.hpp"

namespace simt::cli {

void add_compile_options(CLI::App* cmd, CompileArgs& c) {
  // One value per -I/-D, so `-I inc prog.cu` does not take the file as a second directory.
  cmd->add_option("-I,--include-dir", c.include_dirs, "add a directory to the include search path (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("-D,--define", c.defines, "define a macro for the build: NAME or NAME=VALUE (repeatable)")
      ->allow_extra_args(false);
}

BuildRequest build_request(const std::string& file, bool shared, const CompileArgs& c,
                           const std::vector<std::string>& more_sources) {
  return {file, shared, c.include_dirs, c.defines, more_sources};
}

}  // namespace simt::cli
