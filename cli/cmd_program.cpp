#include "commands.hpp"

namespace simt::cli {
void add_program_commands(CLI::App&) {}
}  // namespace simt::cli
