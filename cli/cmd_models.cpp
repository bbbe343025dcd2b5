#include "commands.hpp"

namespace simt::cli {
void add_model_commands(CLI::App&) {}
}  // namespace simt::cli
