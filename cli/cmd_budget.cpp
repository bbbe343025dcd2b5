#include "commands.hpp"

namespace simt::cli {
void add_budget_commands(CLI::App&) {}
}  // namespace simt::cli
