// Each group of `simt` subcommands lives in one file and registers itself here.
// main.cpp only wires them together; the work happens in sim/, cost/ and models/.
#pragma once
#include <CLI/CLI.hpp>

namespace simt::cli {
void add_kernel_commands(CLI::App& app);  // list, run, metrics             (cmd_kernels.cpp)
void add_bench_command(CLI::App& app);    // bench                          (cmd_bench.cpp)
void add_device_commands(CLI::App& app);  // devices, device show, roofline (cmd_devices.cpp)
void add_model_commands(CLI::App& app);   // model list/show, layer         (cmd_models.cpp)
void add_budget_commands(CLI::App& app);  // budget train/serve             (cmd_budget.cpp)
void add_finetune_command(CLI::App& budget);  // budget finetune            (cmd_finetune.cpp)
void add_serve_sim_command(CLI::App& app);  // serve-sim                  (cmd_serve_sim.cpp)
void add_comm_commands(CLI::App& app);    // comm, pipeline                 (cmd_comm.cpp)
void add_program_commands(CLI::App& app); // exec, cc             (cmd_program.cpp)
void add_validate_command(CLI::App& app); // validate              (cmd_validate.cpp)
void add_table_commands(CLI::App& app);   // table, compare                 (cmd_table.cpp)
void add_lab_commands(CLI::App& app);    // lab list/show/start/check/hint (cmd_lab.cpp)
// `simt exec main.cpp a.cu -- b.cu`: sources before `--`, the program's arguments after
// it. CLI11 puts both in one list; this notes how many came after.  (cmd_program.cpp)
void note_exec_arguments(int argc, char** argv);  // simt exec and simt validate
std::size_t arguments_after_dashes();
// An option name the command it follows does not have, named before CLI11 can take
// the option's value for a positional ("File does not exist: 5"). Throws
// std::invalid_argument.                                           (unknown_options.cpp)
void reject_unknown_options(CLI::App& app, int argc, char** argv);
// A SIMT_* environment variable simt does not read (SIMT_THREADS=4) is named on
// stderr, with the SIMT_OPTIONS spelling, instead of being ignored silently.
//                                                                  (environment_check.cpp)
void warn_unread_environment();
}  // namespace simt::cli
