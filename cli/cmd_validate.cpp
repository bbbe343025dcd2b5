// simt validate FILE.cu: the same program built by nvcc and run on the GPU, and built
// by simtlab and run on the simulator; device memory compared after every launch,
// bit for bit, and the exactly-counted metrics compared with Nsight Compute's. Where
// an allocation differs, both sides' dumps of it are compared element by element and
// the distance reported in ulps; --max-ulp N accepts launches within N.
// The GPU half is program/validate_gpu.sh (docs/validation/h200-simt-validate.md).
#include "commands.hpp"
#include "compile_options.hpp"
#include "exit_codes.hpp"
#include "program_build.hpp"
#include "run_options.hpp"
#include "validate_compare.hpp"

#include "sim/count/metrics.hpp"
#include "sim/options/runtime_options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace simt::cli {

namespace {

namespace fs = std::filesystem;

constexpr int kExitSkipped = 77;  // the automake/ctest convention for "not run here"

struct ValidateArgs {
  std::string file, gpu_results, keep;
  std::vector<std::string> sources;  // the program's other sources (simt validate main.cpp a.cu b.cu)
  std::string unused_positional;
  CompileArgs compile;
  std::vector<std::string> program_args;
  std::optional<std::uint64_t> max_ulp;  // --max-ulp; none: every differing bit fails
  ElementKind elem = ElementKind::F32;   // --elem
};

std::string read_text(const fs::path& p) {
  std::ifstream f(p);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

bool gpu_present() {
  FILE* p = popen("nvidia-smi -L 2>/dev/null", "r");
  if (!p) return false;
  char buf[256];
  std::string out;
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  return pclose(p) == 0 && out.find("GPU ") != std::string::npos;
}

// The metrics simtlab counts exactly: the only ones a difference in is a bug.
std::vector<std::string> exact_metrics() {
  std::vector<std::string> names;
  for (const MetricInfo& m : metric_catalog())
    if (m.fidelity == Fidelity::Exact) names.push_back(m.name);
  return names;
}

// Runs validate_gpu.sh into `dir`; returns its status.
int run_gpu_half(const ValidateArgs& a, const fs::path& dir) {
  std::vector<std::string> cmd = {program_dir() + "/validate_gpu.sh", dir.string(), a.file};
  cmd.insert(cmd.end(), a.sources.begin(), a.sources.end());
  for (const auto& d : a.compile.include_dirs) cmd.insert(cmd.end(), {"-I", fs::absolute(d).string()});
  for (const auto& d : a.compile.defines) cmd.push_back("-D" + d);
  cmd.push_back("--");
  cmd.insert(cmd.end(), a.program_args.begin(), a.program_args.end());
  std::string metrics;
  for (const auto& m : exact_metrics()) metrics += (metrics.empty() ? "" : ",") + m;
  setenv("SIMT_VALIDATE_METRICS", metrics.c_str(), 1);
  return run_program(cmd[0], {cmd.begin() + 1, cmd.end()});
}

// Builds and runs the simulated program; its digests, dumps (sim-dumps/) and JSON land
// in `dir`. Like validate_gpu.sh, it always dumps the allocations that changed, in the
// same run as the digests: a rerun only for the dumps would double the time of the
// slower half, and its digests need not be the first run's (float atomics, anything
// timing-dependent); the dumps are bounded (sim/exec/launch_dump.hpp) and go away
// with the work directory unless --keep.
int run_sim_half(const ValidateArgs& a, const fs::path& dir) {
  BuildProduct p = build_program(build_request(a.file, false, a.compile, a.sources));
  fs::remove_all(dir / "sim-dumps");
  Options o = runtime_options();
  o.validate_dump_dir = (dir / "sim-dumps").string();
  o.validate_digests = (dir / "sim.digests").string();
  o.report_json = (dir / "sim.json").string();
  o.report = ReportKind::none;
  export_options(o);
  return run_program(p.path, a.program_args);
}

std::string memory_text(const LaunchVerdict& v, std::optional<std::uint64_t> bound) {
  switch (v.memory()) {
    case MemoryVerdict::Same: return "same: " + v.memory_detail;
    case MemoryVerdict::WithinUlp: return fmt::format("within {}: {}", format_ulp(bound.value_or(0)), v.memory_detail);
    case MemoryVerdict::Different: break;
  }
  return "DIFFERENT: " + v.memory_detail;
}

// "; max 2 ulp over the run": the largest distance measured in any launch's memory.
std::string max_ulp_text(const std::vector<LaunchVerdict>& verdicts) {
  std::uint64_t max = 0;
  int unmeasured = 0;
  for (const LaunchVerdict& v : verdicts) {
    if (v.max_ulp) max = std::max(max, *v.max_ulp);
    if (!v.memory_same && !v.max_ulp) ++unmeasured;
  }
  std::string s = fmt::format("; max {} over the run", format_ulp(max));
  if (unmeasured)
    s += fmt::format(" ({} differing launch{} not measured)", unmeasured, unmeasured == 1 ? "" : "es");
  return s;
}

void print_verdicts(const std::vector<LaunchVerdict>& verdicts, bool with_counters, std::optional<std::uint64_t> bound) {
  fmt::print("{:>6}  {:<28} {:<44} {}\n", "launch", "kernel", "memory after the launch",
             with_counters ? "counters vs ncu" : "");
  for (std::size_t i = 0; i < verdicts.size(); ++i) {
    const LaunchVerdict& v = verdicts[i];
    std::string counters;
    if (with_counters)
      counters = v.counters_compared == 0 ? "not measured"
                 : v.counters_equal == v.counters_compared
                     ? fmt::format("{}/{} equal", v.counters_equal, v.counters_compared)
                     : fmt::format("{}/{} equal; {}", v.counters_equal, v.counters_compared, v.counter_detail);
    fmt::print("{:>6}  {:<28} {:<44} {}\n", i + 1, v.kernel.substr(0, 28),
               memory_text(v, bound), counters);
  }
}

// "main.cpp a.cu b.cu": the program's sources, as given.
std::string sources_text(const ValidateArgs& a) {
  std::string s = a.file;
  for (const std::string& more : a.sources) s += " " + more;
  return s;
}

int run_validate(const ValidateArgs& a) {
  check_sources(build_request(a.file, false, a.compile, a.sources));  // before a GPU build of a missing file
  fs::path work = a.keep.empty() ? fs::temp_directory_path() / fmt::format("simt-validate-{}", getpid()) : fs::path(a.keep);
  fs::create_directories(work);
  fs::path gpu = a.gpu_results;
  if (gpu.empty()) {
    if (!gpu_present()) {
      fmt::print(stderr,
                 "simt validate: no GPU on this machine (nvidia-smi lists none): skipped. On a GPU machine without "
                 "simtlab's build, run {}/validate_gpu.sh DIR {} and pass --gpu-results DIR here.\n",
                 program_dir(), sources_text(a));
      return kExitSkipped;
    }
    gpu = work / "gpu";
    fmt::print(stderr, "simt validate: building and running {} with nvcc on the GPU\n", sources_text(a));
    if (int st = run_gpu_half(a, gpu); st == kExitSkipped) return kExitSkipped;
  }
  if (!fs::exists(gpu / "gpu.digests"))
    throw std::runtime_error(fmt::format("{} has no gpu.digests: the GPU run did not launch a kernel (see {})",
                                         gpu.string(), (gpu / "build.log").string()));
  fmt::print(stderr, "simt validate: building and running {} on the simulator\n", sources_text(a));
  const int sim_status = run_sim_half(a, work);
  const auto sim_digests = parse_digests(read_text(work / "sim.digests"), "sim.digests");
  const auto gpu_digests = parse_digests(read_text(gpu / "gpu.digests"), (gpu / "gpu.digests").string());
  auto verdicts = compare_memory(sim_digests, gpu_digests);
  DumpComparison dumps{work / "sim-dumps", gpu / "dumps", a.elem, a.max_ulp};
  if (!fs::is_directory(dumps.gpu_dir)) {
    if (std::any_of(verdicts.begin(), verdicts.end(), [](const LaunchVerdict& v) { return !v.differing_allocations.empty(); }))
      fmt::print(stderr,
                 "simt validate: {} has no dumps/ (validate_gpu.sh run with SIMT_VALIDATE_DUMP=0, or before it wrote "
                 "dumps): differing allocations are not compared in ulps\n",
                 gpu.string());
    dumps.gpu_dir.clear();
  }
  compare_dumps(verdicts, sim_digests, gpu_digests, dumps);
  const bool with_counters = fs::exists(gpu / "ncu.csv") && fs::file_size(gpu / "ncu.csv") > 0;
  if (with_counters)
    compare_counters(verdicts, nlohmann::json::parse(read_text(work / "sim.json")),
                     parse_ncu_csv(read_text(gpu / "ncu.csv")), exact_metrics());
  print_verdicts(verdicts, with_counters, a.max_ulp);
  const auto same = std::count_if(verdicts.begin(), verdicts.end(), [](const LaunchVerdict& v) { return v.same(); });
  const auto accepted =
      std::count_if(verdicts.begin(), verdicts.end(), [](const LaunchVerdict& v) { return v.accepted(); });
  fmt::print("simt validate: {}/{} launches identical{}{}{}{}\n", same, verdicts.size(),
             accepted > same ? fmt::format(", {} within {}", accepted - same, format_ulp(*a.max_ulp)) : "",
             with_counters ? " (memory and counters)" : " (memory; no ncu here, counters not compared)",
             max_ulp_text(verdicts),
             sim_status != 0 ? fmt::format("; the simulated program exited {}", sim_status) : "");
  if (a.keep.empty()) fs::remove_all(work);
  return accepted == static_cast<long>(verdicts.size()) && !verdicts.empty() ? kExitOk : kExitFailed;
}

[[noreturn]] void finish(int code) { throw CLI::RuntimeError(code); }

}  // namespace

void add_validate_command(CLI::App& app) {
  auto args = std::make_shared<ValidateArgs>();
  CLI::App* cmd = app.add_subcommand(
      "validate", "Run a CUDA program on the GPU (nvcc) and on the simulator; compare memory after every launch and "
                  "the counters with ncu (exit 77 without a GPU)");
  cmd->add_option("file", args->file, "the .cu file; with more sources (main.cpp a.cu b.cu), the first names the program")
      ->required()
      ->check(CLI::ExistingFile);
  add_compile_options(cmd, args->compile);
  cmd->add_option("--gpu-results", args->gpu_results,
                  "a directory written by validate_gpu.sh on a GPU machine, instead of running the GPU half here")
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--keep", args->keep, "keep the builds, digests, dumps and reports in this directory");
  auto max_ulp = std::make_shared<std::uint64_t>(0);
  CLI::Option* max_ulp_option = cmd->add_option(
      "--max-ulp", *max_ulp,
      "accept a launch whose memory differs only by at most N ulp per element (read as --elem); without it every "
      "differing bit fails, with 0 only -0 vs +0 and NaNs of other payloads pass");
  auto elem = std::make_shared<std::string>("f32");
  cmd->add_option("--elem", *elem, "how to read a differing allocation's bytes (default f32)")
      ->check(CLI::IsMember({"f32", "f64", "f16", "bf16", "bytes"}));
  cmd->add_option("args", args->program_args,
                  "more sources of the program (.cu, .cpp, .cc, .cxx: built as simt exec and nvcc -rdc=true build "
                  "them), then the program's arguments (after --, or any argument that is no source's name)");
  // Never filled: keeps CLI11 parsing after `--` (as simt exec's, cmd_program.cpp).
  cmd->add_option("after_dashes", args->unused_positional)->group("");
  cmd->callback([args, max_ulp, max_ulp_option, elem] {
    // Before `--`, a .cu or C++ file's name is one of the program's sources.
    std::vector<std::string> program_args;
    const std::size_t before =
        args->program_args.size() - std::min(arguments_after_dashes(), args->program_args.size());
    for (std::size_t i = 0; i < args->program_args.size(); ++i)
      (i < before && is_source_name(args->program_args[i]) ? args->sources : program_args)
          .push_back(args->program_args[i]);
    args->program_args = std::move(program_args);
    if (max_ulp_option->count() > 0) args->max_ulp = *max_ulp;
    args->elem = *parse_element_kind(*elem);
    finish(run_validate(*args));
  });
}

}  // namespace simt::cli
