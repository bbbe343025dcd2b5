// simt port / exec / cc: plain CUDA programs in, simulated runs and libraries out.
// The work is in port/ (source rewriting) and program_build.cpp (compile, cache, run).
#include "commands.hpp"
#include "exec_times.hpp"
#include "exit_codes.hpp"
#include "launch_errors.hpp"
#include "options.hpp"
#include "cost/catalog/catalog.hpp"
#include "port/port.hpp"
#include "compile_options.hpp"
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
  std::string file, device = "H200", json, timeline;
  CompileArgs compile;
  bool json_flag = false;
  bool no_skip_repeats = false, no_defer_repeats = false, skip_all_repeats = false, no_races = false;
  bool exact = false;
  double sample_budget = 0;
  unsigned long long watchdog_insts = 0;  // 0: the program's default (sim/compiler/spin_watch.hpp)
  std::vector<std::string> program_args;
};

struct CcArgs {
  std::string file, output;
  CompileArgs compile;
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

// The program's own status, except that a program which exits 0 although a launch
// failed returns 1: a CI job must not pass on a kernel the GPU would have refused.
int report_exit(const std::string& file, int status, std::size_t failed_launches) {
  if (status > 128) {
    int sig = status - 128;
    fmt::print(stderr, "simt exec: {} was killed by signal {} ({})\n", file, sig, strsignal(sig));
  }
  if (status == 0 && failed_launches > 0) {
    fmt::print(stderr, "simt exec: {} exited 0, but {} launch{} had errors (reported above): exit {}\n", file,
               failed_launches, failed_launches == 1 ? "" : "es", int(kExitFailed));
    return kExitFailed;
  }
  return status;
}

int run_exec(const ExecArgs& a) {
  export_device(a.device);
  if (a.watchdog_insts) setenv("SIMT_WATCHDOG_INSTS", std::to_string(a.watchdog_insts).c_str(), 1);
  BuildProduct p = build_program(build_request(a.file, false, a.compile));
  setenv("SIMT_REPORT", "tables", 1);
  // The program always writes its launches as JSON, so they can be timed here:
  // to the user's file, or to a temporary one.
  const bool to_file = a.json_flag && a.json != "-";
  const std::string report =
      to_file ? a.json : (std::filesystem::temp_directory_path() / fmt::format("simt-exec-{}.json", getpid())).string();
  setenv("SIMT_REPORT_JSON", report.c_str(), 1);
  if (a.json_flag && a.json == "-") setenv("SIMT_REPORT", "none", 1);  // JSON on stderr replaces the tables there
  // The simulated clock's timeline: to the user's file, or a temporary one for the summary.
  const std::string timeline =
      !a.timeline.empty() ? a.timeline
                          : (std::filesystem::temp_directory_path() / fmt::format("simt-timeline-{}.json", getpid())).string();
  setenv("SIMT_TIMELINE", timeline.c_str(), 1);
  if (int(a.no_skip_repeats) + int(a.no_defer_repeats) + int(a.skip_all_repeats) > 1)
    throw std::invalid_argument("--no-skip-repeats, --no-defer-repeats and --skip-all-repeats contradict each other");
  setenv("SIMT_SKIP_REPEATS",
         a.no_skip_repeats ? "0" : a.no_defer_repeats ? "pure" : a.skip_all_repeats ? "all" : "1", 1);
  // $SIMT_RACES=always keeps the race checks on even where their shadow could outgrow
  // this machine (sim/exec/race_shadow_budget.hpp).
  const char* races = std::getenv("SIMT_RACES");
  const bool always = races && std::string_view(races) == "always";
  setenv("SIMT_RACES", a.no_races ? "0" : always ? "always" : "1", 1);
  if (a.exact && a.sample_budget > 0) throw std::invalid_argument("--exact and --sample-budget contradict each other");
  if (a.exact) setenv("SIMT_EXACT", "1", 1);
  if (a.sample_budget > 0) setenv("SIMT_SAMPLE_BUDGET", fmt::format("{}", a.sample_budget).c_str(), 1);
  int status = run_program(p.path, a.program_args);
  const std::size_t failed_launches = launches_with_errors(report);
  report_kernel_times(report, timeline, a.device, a.json_flag && a.json == "-", to_file);
  if (!to_file) std::filesystem::remove(report);
  if (a.timeline.empty()) std::filesystem::remove(timeline);
  return report_exit(a.file, status, failed_launches);
}

int run_cc(const CcArgs& a) {
  refuse_overwriting(a.file, a.output);
  BuildProduct p = build_program(build_request(a.file, a.shared, a.compile));
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
  add_compile_options(exec, exec_args->compile);
  exec->add_option("--timeline", exec_args->timeline,
                   "write the simulated clock's timeline (kernels, copies, memsets per stream) as a Chrome/Perfetto trace");
  exec->add_flag("--no-skip-repeats", exec_args->no_skip_repeats,
                 "execute every launch when it is made, also those identical to an earlier one");
  exec->add_flag("--no-defer-repeats", exec_args->no_defer_repeats,
                 "execute identical repeats that change memory (in-place, atomics) when they are made, instead of "
                 "when something reads what they write (docs/exec.md, 'Deferred repeats')");
  exec->add_flag("--skip-all-repeats", exec_args->skip_all_repeats,
                 "for timing benchmarks: skip identical repeats even when they change memory (in-place, atomics); "
                 "device memory then differs from a GPU's, and the report says so");
  exec->add_flag("--no-races", exec_args->no_races,
                 "skip race detection: faster, and no race shadow (16 bytes per word of device memory touched), "
                 "for programs too large to check on this machine (simt turns it off by itself, with a warning, when "
                 "the shadow could outgrow half the machine's memory; $SIMT_RACES=always keeps it on)");
  exec->add_flag("--exact", exec_args->exact,
                 "count every block of every launch, however long it takes (by default a launch whose exact run "
                 "would exceed the sample budget counts a sample of its blocks; docs/exec.md, 'Sampled launches')");
  exec->add_option("--sample-budget", exec_args->sample_budget,
                   "seconds a launch may take to count every block before it is sampled (default 60)")
      ->check(CLI::PositiveNumber);
  exec->add_option("--watchdog-insts", exec_args->watchdog_insts,
                   "instructions a thread may run between two barriers before the watchdog stops its block "
                   "(default 2^32; compiler front end)")
      ->check(CLI::PositiveNumber);
  exec->add_option("args", exec_args->program_args, "arguments for the program (after --)");
  exec->callback([exec_args] {
    exec_args->json_flag = !exec_args->json.empty();
    finish(run_exec(*exec_args));
  });

  auto cc_args = std::make_shared<CcArgs>();
  CLI::App* cc = app.add_subcommand("cc", "Build a CUDA program or shared library against the simulator");
  cc->add_option("file", cc_args->file, "the .cu file (plain CUDA or dialect)")->required()->check(CLI::ExistingFile);
  cc->add_flag("--shared", cc_args->shared, "a shared library (e.g. for Python ctypes)");
  add_compile_options(cc, cc_args->compile);
  cc->add_option("-o,--output", cc_args->output, "the executable or .so to write")->required();
  cc->callback([cc_args] { finish(run_cc(*cc_args)); });
}

}  // namespace simt::cli
