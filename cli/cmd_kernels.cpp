#include "commands.hpp"

namespace simt::cli {
void add_kernel_commands(CLI::App&) {}
}  // namespace simt::cli
