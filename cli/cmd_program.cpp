// simt port / exec / cc: plain CUDA programs in, simulated runs and libraries out.
// The work is in port/ (source rewriting) and program_build.cpp (compile, cache, run).
#include "commands.hpp"
#include "exec_times.hpp"
#include "options.hpp"
#include "cost/catalog.hpp"
#include "port/port.hpp"
#include "program_build.hpp"
#include "simulated_device.hpp"

#include <fmt/core.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace simt::cli {

namespace {

struct PortArgs {
  std::string file, output;
};

struct ExecArgs {
  std::string file, device = "H200", json, frontend;
  bool json_flag = false;
  unsigned long long watchdog_insts = 0;  // 0: the program's default (sim/compiler/spin_watch.hpp)
  std::vector<std::string> program_args;
};

struct CcArgs {
  std::string file, output, frontend;
  bool shared = false;
};

std::string read_source(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// `-o` naming the input would destroy the learner's only copy of their code.
void refuse_overwriting(const std::string& input, const std::string& output) {
  std::error_code ec;
  if (std::filesystem::equivalent(input, output, ec))
    throw std::invalid_argument(fmt::format("-o {} would overwrite the input file {}; choose another name", output, input));
}

int run_port(const PortArgs& a) {
  if (!a.output.empty() && a.output != "-") refuse_overwriting(a.file, a.output);
  port::PortResult r = port::port_source(read_source(a.file));
  fmt::print(stderr, "{}", port::format_issues(a.file, r));
  if (!r.ok()) {
    fmt::print(stderr, "simt port: {} not ported: {} construct{} above cannot run on the simulator\n", a.file,
               r.errors.size(), r.errors.size() == 1 ? "" : "s");
    return 1;
  }
  if (a.output.empty() || a.output == "-") {
    fmt::print("{}", r.output);
    return 0;
  }
  std::ofstream out(a.output, std::ios::binary);
  out << r.output;
  if (!out) throw std::runtime_error("cannot write " + a.output);
  if (r.new_first_line)
    fmt::print(stderr, "simt port: {}: no blank line before the first declaration, so the dialect include is on a "
                       "new first line, followed by `#line 1` (compilers still see the original line numbers)\n",
               a.file);
  fmt::print(stderr, "simt port: wrote {} ({} launch{} rewritten)\n", a.output, r.launches, r.launches == 1 ? "" : "es");
  return 0;
}

// The program reads the simulated device from the environment (report_at_exit.cpp).
void export_device(const std::string& name) {
  setenv(kDeviceEnvVar, device_to_env(limits_of(cost::Catalog::builtin().device(name))).c_str(), 1);
}

int report_exit(const std::string& file, int status) {
  if (status > 128) {
    int sig = status - 128;
    fmt::print(stderr, "simt exec: {} was killed by signal {} ({})\n", file, sig, strsignal(sig));
  }
  return status;
}

int run_exec(const ExecArgs& a) {
  export_device(a.device);
  if (a.watchdog_insts) setenv("SIMT_WATCHDOG_INSTS", std::to_string(a.watchdog_insts).c_str(), 1);
  BuildProduct p = build_program({a.file, false, parse_frontend(a.frontend)});
  setenv("SIMT_REPORT", "tables", 1);
  // The program always writes its launches as JSON, so they can be timed here:
  // to the user's file, or to a temporary one.
  const bool to_file = a.json_flag && a.json != "-";
  const std::string report =
      to_file ? a.json : (std::filesystem::temp_directory_path() / fmt::format("simt-exec-{}.json", getpid())).string();
  setenv("SIMT_REPORT_JSON", report.c_str(), 1);
  if (a.json_flag && a.json == "-") setenv("SIMT_REPORT", "none", 1);  // JSON on stderr replaces the tables there
  int status = run_program(p.path, a.program_args);
  report_kernel_times(report, a.device, a.json_flag && a.json == "-", to_file);
  if (!to_file) std::filesystem::remove(report);
  return report_exit(a.file, status);
}

int run_cc(const CcArgs& a) {
  refuse_overwriting(a.file, a.output);
  BuildProduct p = build_program({a.file, a.shared, parse_frontend(a.frontend)});
  std::error_code ec;
  std::filesystem::copy_file(p.path, a.output, std::filesystem::copy_options::overwrite_existing, ec);
  if (ec) throw std::runtime_error("cannot write " + a.output + ": " + ec.message());
  fmt::print(stderr, "simt cc: wrote {}{}\n", a.output, p.cached ? " (cached build)" : "");
  return 0;
}

// CLI11 parses; the command's own exit code leaves through this exception.
[[noreturn]] void finish(int code) { throw CLI::RuntimeError(code); }

}  // namespace

void add_program_commands(CLI::App& app) {
  auto port_args = std::make_shared<PortArgs>();
  CLI::App* port = app.add_subcommand("port", "Rewrite a plain CUDA file into simtlab's dialect (docs/dialect.md)");
  port->add_option("file", port_args->file, "the .cu file")->required()->check(CLI::ExistingFile);
  port->add_option("-o,--output", port_args->output, "write here instead of stdout");
  port->callback([port_args] { finish(run_port(*port_args)); });

  auto exec_args = std::make_shared<ExecArgs>();
  CLI::App* exec = app.add_subcommand("exec", "Build a CUDA program against the simulator, run it, report every launch");
  exec->add_option("file", exec_args->file, "the .cu file (plain CUDA or dialect)")->required()->check(CLI::ExistingFile);
  add_device_option(exec, exec_args->device, "simulated device from the catalog (simt devices)");
  // A flag that takes its value only as --json=PATH, so `--json prog.cu` stays unambiguous.
  exec->add_flag("--json{-}", exec_args->json, "launch reports as JSON: --json (stderr) or --json=PATH");
  exec->add_option("--watchdog-insts", exec_args->watchdog_insts,
                   "instructions a thread may run between two barriers before the watchdog stops its block "
                   "(default 2^32; compiler front end)")
      ->check(CLI::PositiveNumber);
  exec->add_option("--frontend", exec_args->frontend,
                   "clang (the default): compile the file unchanged, instrumented by simtlab's LLVM pass; port: the "
                   "f32 rewrite (docs/frontend.md)");
  exec->add_option("args", exec_args->program_args, "arguments for the program (after --)");
  exec->callback([exec_args] {
    exec_args->json_flag = !exec_args->json.empty();
    finish(run_exec(*exec_args));
  });

  auto cc_args = std::make_shared<CcArgs>();
  CLI::App* cc = app.add_subcommand("cc", "Build a CUDA program or shared library against the simulator");
  cc->add_option("file", cc_args->file, "the .cu file (plain CUDA or dialect)")->required()->check(CLI::ExistingFile);
  cc->add_flag("--shared", cc_args->shared, "a shared library (e.g. for Python ctypes)");
  cc->add_option("--frontend", cc_args->frontend, "clang or port (as for simt exec)");
  cc->add_option("-o,--output", cc_args->output, "the executable or .so to write")->required();
  cc->callback([cc_args] { finish(run_cc(*cc_args)); });
}

}  // namespace simt::cli
