// simt exec / cc: plain CUDA programs in, simulated runs and libraries out.
// The work is in program_build.cpp (the compiler front end: compile, cache, run).
#include "commands.hpp"
#include "exec_ranks.hpp"
#include "exec_times.hpp"
#include "exit_codes.hpp"
#include "launch_errors.hpp"
#include "options.hpp"
#include "cost/catalog/catalog.hpp"
#include "sim/exec/devices.hpp"
#include "compile_options.hpp"
#include "program_build.hpp"
#include "run_options.hpp"
#include "sim/options/runtime_options.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <tuple>
#include <utility>
#include <unistd.h>

namespace simt::cli {

namespace {

struct ExecArgs {
  std::string file;                  // the first source: it names the program
  std::vector<std::string> sources;  // the others (simt exec main.cpp kernels.cu)
  std::string device, json, timeline, sample_budget, watchdog_insts;
  std::string gpus, nodes, link, inter_link;
  int ranks = 0;         // one process per rank (mpirun); 0: one process
  std::string hostfile;  // mpirun --hostfile
  CompileArgs compile;
  bool json_flag = false;
  bool no_skip_repeats = false, no_defer_repeats = false, skip_all_repeats = false, no_races = false;
  bool exact = false;
  OptionItems flags;  // the runtime options given as flags (run_options.hpp)
  std::vector<std::string> program_args;
  std::string unused_positional;
};

struct CcArgs {
  std::string file, output;
  std::vector<std::string> sources;  // the others
  CompileArgs compile;
  bool shared = false;
};

std::vector<std::string> all_sources(const std::string& first, const std::vector<std::string>& more) {
  std::vector<std::string> all = {first};
  all.insert(all.end(), more.begin(), more.end());
  return all;
}

// Arguments of simt exec after `--`: CLI11 puts them in the same list as those before,
// and only those before are sources (note_exec_arguments).
std::size_t g_args_after_dashes = 0;

// `-o` naming the input would destroy the learner's only copy of their code.
void refuse_overwriting(const std::string& input, const std::string& output) {
  std::error_code ec;
  if (std::filesystem::equivalent(input, output, ec))
    throw std::invalid_argument(fmt::format("-o {} would overwrite the input file {}; choose another name", output, input));
}

// A report the run will write: not over the source, and somewhere it can be written —
// found before the build, not after a long run that then cannot save its result.
void check_writable_output(const std::string& input, const std::string& output, const char* flag) {
  std::error_code ec;
  if (std::filesystem::equivalent(input, output, ec))
    throw std::invalid_argument(fmt::format("{} {} would overwrite the input file {}; choose another name", flag, output, input));
  const std::filesystem::path parent = std::filesystem::absolute(output).parent_path();
  if (!std::filesystem::is_directory(parent, ec))
    throw std::invalid_argument(fmt::format("{} {}: the folder {} does not exist", flag, output, parent.string()));
  if (access(parent.c_str(), W_OK) != 0)
    throw std::invalid_argument(fmt::format("{} {}: the folder {} is not writable", flag, output, parent.string()));
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

// Several simulated GPUs: a count the runtime can hold, nodes that split them
// evenly, links the catalog knows — refused here, before the build.
void check_gpus(const Options& o) {
  if (o.gpus > kMaxDevices)
    throw std::invalid_argument(fmt::format("--gpus {}: simtlab simulates at most {} GPUs", o.gpus, kMaxDevices));
  if (o.nodes > o.gpus || o.gpus % o.nodes != 0)
    throw std::invalid_argument(fmt::format("--nodes {}: {} GPUs do not split evenly over {} nodes", o.nodes, o.gpus, o.nodes));
  if (!o.link.empty()) cost::Catalog::builtin().link(o.link);
  if (!o.inter_link.empty()) cost::Catalog::builtin().link(o.inter_link);
}

// The options the program runs with: $SIMT_OPTIONS, the flags over it, and what
// simt exec itself needs of the program: its launches as JSON, so they can be timed
// here (to the user's file, or a temporary one; on stderr they replace the tables),
// and the simulated clock's timeline (the user's file, or a temporary one for the summary).
Options exec_options(const ExecArgs& a, const std::string& report, const std::string& timeline) {
  if (int(a.no_skip_repeats) + int(a.no_defer_repeats) + int(a.skip_all_repeats) > 1)
    throw std::invalid_argument("--no-skip-repeats, --no-defer-repeats and --skip-all-repeats contradict each other");
  if (a.exact && !a.sample_budget.empty()) throw std::invalid_argument("--exact and --sample-budget contradict each other");
  Options o = with_flags(runtime_options(), a.flags);
  o.report = a.json_flag && a.json == "-" ? ReportKind::none : ReportKind::tables;
  o.report_json = report;
  o.timeline = timeline;
  cost::Catalog::builtin().device(o.device);  // an unknown name fails here, before the build
  check_gpus(o);
  return o;
}

std::pair<int, std::size_t> run_exec_ranks(const ExecArgs& a, const BuildRequest& request, Options o,
                                           bool json_to_stderr);

int run_exec(const ExecArgs& a) {
  if (!a.hostfile.empty() && a.ranks == 0) throw std::invalid_argument("--hostfile needs --ranks N");
  const BuildRequest request = build_request(a.file, false, a.compile, a.sources);
  check_sources(request);  // a missing or repeated source: refused before anything runs
  const bool to_file = a.json_flag && a.json != "-";
  for (const std::string& source : all_sources(a.file, a.sources)) {
    if (to_file) check_writable_output(source, a.json, "--json");
    if (!a.timeline.empty()) check_writable_output(source, a.timeline, "--timeline");
  }
  const auto temp = std::filesystem::temp_directory_path();
  const std::string report = to_file ? a.json : (temp / fmt::format("simt-exec-{}.json", getpid())).string();
  const std::string timeline =
      !a.timeline.empty() ? a.timeline : (temp / fmt::format("simt-timeline-{}.json", getpid())).string();
  Options o = exec_options(a, report, timeline);
  const bool json_to_stderr = a.json_flag && a.json == "-";
  int status = 0;
  std::size_t failed_launches = 0;
  if (a.ranks > 0) {
    std::tie(status, failed_launches) = run_exec_ranks(a, request, o, json_to_stderr);
  } else {
    export_options(o);  // before the build: the compiler pass reads its switches there
    status = run_program(build_program(request).path, a.program_args);
    failed_launches = launches_with_errors(report);
    report_kernel_times(report, timeline, o.device, json_to_stderr);
  }
  if (!to_file) std::filesystem::remove(report);
  if (a.timeline.empty()) std::filesystem::remove(timeline);
  return report_exit(a.file, status, failed_launches);
}

// simt exec --ranks N: the same build, run as N processes by mpirun; each rank's
// tables go to its own file, printed here in rank order (exec_ranks.hpp). The worst
// rank's status and the launches with errors over all ranks.
std::pair<int, std::size_t> run_exec_ranks(const ExecArgs& a, const BuildRequest& request, Options o,
                                           bool json_to_stderr) {
  check_mpirun();
  const auto temp = std::filesystem::temp_directory_path();
  RanksRun r;
  r.ranks = a.ranks;
  r.hostfile = a.hostfile;
  r.args = a.program_args;
  r.report = o.report_json;
  r.timeline = o.timeline;
  r.tables = (temp / fmt::format("simt-tables-{}.txt", getpid())).string();
  if (o.report == ReportKind::tables) o.tables = r.tables;
  export_options(o);
  r.program = build_program(request).path;
  const int status = run_ranks(r);
  return {status, merge_rank_reports(r, o.device, json_to_stderr)};
}

int run_cc(const CcArgs& a) {
  const BuildRequest request = build_request(a.file, a.shared, a.compile, a.sources);
  check_sources(request);
  for (const std::string& source : all_sources(a.file, a.sources)) refuse_overwriting(source, a.output);
  BuildProduct p = build_program(request);
  std::error_code ec;
  std::filesystem::copy_file(p.path, a.output, std::filesystem::copy_options::overwrite_existing, ec);
  if (ec) throw std::runtime_error("cannot write " + a.output + ": " + ec.message());
  fmt::print(stderr, "simt cc: wrote {}{}\n", a.output, p.cached ? " (cached build)" : "");
  return 0;
}

// CLI11 parses; the command's own exit code leaves through this exception.
[[noreturn]] void finish(int code) { throw CLI::RuntimeError(code); }

}  // namespace

std::size_t arguments_after_dashes() { return g_args_after_dashes; }

void note_exec_arguments(int argc, char** argv) {
  if (argc < 2 || (std::strcmp(argv[1], "exec") != 0 && std::strcmp(argv[1], "validate") != 0)) return;
  for (int i = 2; i < argc; ++i)
    if (std::strcmp(argv[i], "--") == 0) {
      g_args_after_dashes = std::size_t(argc - i - 1);
      return;
    }
}

void add_program_commands(CLI::App& app) {
  auto exec_args = std::make_shared<ExecArgs>();
  CLI::App* exec = app.add_subcommand("exec", "Build a CUDA program against the simulator, run it, report every launch");
  exec->add_option("file", exec_args->file,
                   "the .cu file; with more sources (main.cpp a.cu b.cu), the first names the program")
      ->required()
      ->check(CLI::ExistingFile);
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
                 "the shadow could outgrow half the machine's memory; SIMT_OPTIONS=races=always keeps it on)");
  exec->add_flag("--exact", exec_args->exact,
                 "count every block of every launch, however long it takes (by default a launch whose exact run "
                 "would exceed the sample budget counts a sample of its blocks; docs/exec.md, 'Sampled launches')");
  exec->add_option("--sample-budget", exec_args->sample_budget,
                   "seconds a launch may take to count every block before it is sampled (default 60)")
      ->type_name("SECONDS");
  exec->add_option("--watchdog-insts", exec_args->watchdog_insts,
                   "instructions a thread may run between two barriers before the watchdog stops its block "
                   "(default 2^32)")
      ->type_name("N");
  exec->add_option("--gpus", exec_args->gpus,
                   "simulated GPUs the program sees (cudaGetDeviceCount; default 1), all of --device's kind")
      ->type_name("N");
  exec->add_option("--nodes", exec_args->nodes, "machines the GPUs are split over, evenly (default 1)")->type_name("M");
  exec->add_option("--link", exec_args->link,
                   "the link between GPUs of a node (simt devices lists links; default: the device's, NVLink4 for "
                   "H100/H200)");
  exec->add_option("--inter-link", exec_args->inter_link,
                   "the network between nodes, one NIC per GPU (default: the device's server's, IB-NDR for H100/H200)");
  exec->add_option("--ranks", exec_args->ranks,
                   "run the program as N processes, one per rank, started by Open MPI's mpirun (programs that call "
                   "MPI, or read RANK, WORLD_SIZE, LOCAL_RANK); each sees --gpus GPUs (default N) and uses one")
      ->type_name("N")
      ->check(CLI::Range(1, 256));
  exec->add_option("--hostfile", exec_args->hostfile, "with --ranks: mpirun's hostfile (docs/multi-gpu.md)")
      ->check(CLI::ExistingFile);
  exec->add_option("args", exec_args->program_args,
                   "more sources of the program (.cu through the compiler pass; .cpp, .cc, .cxx as host C++), then "
                   "the program's arguments (after --, or any argument that is no source's name)");
  // Never filled: while a positional is still empty, CLI11 goes on parsing after `--`
  // (it hands `--` and what follows back to `simt` once every positional has a value,
  // which `simt exec main.cpp a.cu -- x` would otherwise reach).
  exec->add_option("after_dashes", exec_args->unused_positional)->group("");
  exec->footer(options_help());
  exec->callback([exec_args, exec] {
    ExecArgs& a = *exec_args;
    a.json_flag = !a.json.empty();
    // Before `--`, a .cu or C++ file's name is one of the program's sources.
    std::vector<std::string> program_args;
    const std::size_t before = a.program_args.size() - std::min(g_args_after_dashes, a.program_args.size());
    for (std::size_t i = 0; i < a.program_args.size(); ++i)
      (i < before && is_source_name(a.program_args[i]) ? a.sources : program_args).push_back(a.program_args[i]);
    a.program_args = std::move(program_args);
    add_if_given(a.flags, exec, "--device", "device", a.device);
    add_if_given(a.flags, exec, "--no-skip-repeats", "skip_repeats", "none");
    add_if_given(a.flags, exec, "--no-defer-repeats", "skip_repeats", "pure");
    add_if_given(a.flags, exec, "--skip-all-repeats", "skip_repeats", "all");
    add_if_given(a.flags, exec, "--no-races", "races", "off");
    add_if_given(a.flags, exec, "--exact", "exact", "1");
    add_if_given(a.flags, exec, "--sample-budget", "sample_budget", a.sample_budget);
    add_if_given(a.flags, exec, "--watchdog-insts", "watchdog_insts", a.watchdog_insts);
    add_if_given(a.flags, exec, "--gpus", "gpus", a.gpus);
    if (a.ranks > 0 && a.gpus.empty()) a.flags.push_back({"--ranks", "gpus", std::to_string(a.ranks)});
    add_if_given(a.flags, exec, "--nodes", "nodes", a.nodes);
    add_if_given(a.flags, exec, "--link", "link", a.link);
    add_if_given(a.flags, exec, "--inter-link", "inter_link", a.inter_link);
    finish(run_exec(a));
  });

  auto cc_args = std::make_shared<CcArgs>();
  CLI::App* cc = app.add_subcommand("cc", "Build a CUDA program or shared library against the simulator");
  cc->add_option("file", cc_args->file, "the .cu file; with more sources, the first names the product")
      ->required()
      ->check(CLI::ExistingFile);
  cc->add_option("sources", cc_args->sources,
                 "more sources of the program or library (.cu through the compiler pass; .cpp, .cc, .cxx as host C++)");
  cc->add_flag("--shared", cc_args->shared, "a shared library (e.g. for Python ctypes)");
  add_compile_options(cc, cc_args->compile);
  cc->add_option("-o,--output", cc_args->output, "the executable or .so to write")->required();
  cc->callback([cc_args] { finish(run_cc(*cc_args)); });
}

}  // namespace simt::cli
