// simt: the command-line front end. Thin glue: parse, dispatch, report errors.
#include "commands.hpp"

#include <fmt/core.h>
#include <exception>

int main(int argc, char** argv) {
  CLI::App app{"simt: a SIMT simulator with Nsight Compute counters, and a roofline cost model"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "simtlab 0.1.0");
  simt::cli::add_kernel_commands(app);
  simt::cli::add_bench_command(app);
  simt::cli::add_device_commands(app);
  simt::cli::add_model_commands(app);
  simt::cli::add_budget_commands(app);
  simt::cli::add_serve_sim_command(app);
  simt::cli::add_comm_commands(app);
  simt::cli::add_program_commands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    fmt::print(stderr, "simt: error: {}\n", e.what());
    return 1;
  }
  return 0;
}
