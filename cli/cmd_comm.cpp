#include "commands.hpp"

namespace simt::cli {
void add_comm_commands(CLI::App&) {}
}  // namespace simt::cli
