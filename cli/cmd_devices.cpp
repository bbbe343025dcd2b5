#include "commands.hpp"

namespace simt::cli {
void add_device_commands(CLI::App&) {}
}  // namespace simt::cli
