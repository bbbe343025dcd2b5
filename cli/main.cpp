// simt: the command-line front end. Thin glue: parse, dispatch, report errors
// with the exit codes of cli/exit_codes.hpp.
#include "commands.hpp"
#include "exit_codes.hpp"

#include "util/near_miss.hpp"

#include <fmt/core.h>

#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

std::vector<std::string> command_names(CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) names.push_back(sub->get_name());
  return names;
}

// `simt help [command]`: the same text as --help.
void add_help_command(CLI::App& app) {
  auto* help = app.add_subcommand("help", "Show the commands, or one command's options: simt help run");
  auto topic = std::make_shared<std::string>();
  help->add_option("command", *topic, "a command");
  help->callback([&app, topic] {
    if (topic->empty()) {
      // app.help() would describe the running subcommand, `help` itself.
      fmt::print("{}", app.get_formatter()->make_help(&app, "", CLI::AppFormatMode::Normal));
      return;
    }
    const auto names = command_names(app);
    for (const std::string& n : names)
      if (n == *topic) {
        fmt::print("{}", app.get_subcommand(n)->help());
        return;
      }
    throw std::invalid_argument(simt::unknown_name_message("command", *topic, names, "simt help"));
  });
}

}  // namespace

int main(int argc, char** argv) {
  using namespace simt::cli;
  CLI::App app{"simt: a SIMT simulator with Nsight Compute counters, and a roofline cost model"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "simtlab 0.1.0");
  app.footer("Exit codes: 0 done, 1 a check or launch failed, 2 usage error, 3 the simulated program crashed.");
  add_kernel_commands(app);
  add_bench_command(app);
  add_device_commands(app);
  add_model_commands(app);
  add_budget_commands(app);
  add_serve_sim_command(app);
  add_comm_commands(app);
  add_program_commands(app);
  add_validate_command(app);
  add_table_commands(app);
  add_lab_commands(app);
  add_help_command(app);

  warn_unread_environment();
  if (argc == 1) {  // no command: show them, and say it was a usage error
    fmt::print(stderr, "{}", app.help());
    return kExitUsage;
  }
  // A first word that is no command: say which one was meant, not "a subcommand is required".
  if (argc > 1 && argv[1][0] != '-') {
    const auto names = command_names(app);
    bool known = false;
    for (const std::string& n : names) known |= n == argv[1];
    if (!known) {
      fmt::print(stderr, "simt: error: {}\n", simt::unknown_name_message("command", argv[1], names, "simt help"));
      return kExitUsage;
    }
  }
  try {
    note_exec_arguments(argc, argv);
    reject_unknown_options(app, argc, argv);
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& e) {  // a command's own result: the message is already out
    return e.get_exit_code();
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints help, the version, or the parse error
    return code == 0 ? kExitOk : kExitUsage;
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "simt: error: {}\n", e.what());
    return kExitUsage;
  } catch (const std::bad_alloc&) {
    fmt::print(stderr,
               "simt: error: out of memory: this run needs more memory than the process may use (the machine's free "
               "memory, or a limit such as `ulimit -v`); try smaller sizes\n");
    return kExitFailed;
  } catch (const std::exception& e) {
    fmt::print(stderr, "simt: error: {}\n", e.what());
    return kExitFailed;
  }
  return kExitOk;
}
