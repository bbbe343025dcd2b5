#include "exec_ranks.hpp"

#include "exec_times.hpp"
#include "launch_errors.hpp"
#include "program_build.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <unistd.h>

extern char** environ;

namespace simt::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

bool on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  for (std::size_t start = 0; start <= dirs.size();) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    if (end > start && access((dirs.substr(start, end - start) + "/" + name).c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

// A name for this run's shared files (/dev/shm/simt-<job>/), unique on the machine.
std::string new_job_name() {
  std::random_device rd;
  return fmt::format("{}-{:08x}", getpid(), rd());
}

std::string rank_path(const std::string& path, int rank) { return fmt::format("{}.rank{}", path, rank); }

// One machine: shared memory between the ranks, TCP only on loopback, no core
// binding (the ranks share cores with the simulator's worker threads), and ranks
// that wait in MPI yield the core instead of spinning.
std::vector<std::string> mpirun_command(const RanksRun& r) {
  std::vector<std::string> cmd = {"mpirun", "-np", std::to_string(r.ranks), "--oversubscribe", "--bind-to", "none",
                                  "--mca", "btl", "self,vader", "--mca", "btl_vader_single_copy_mechanism", "none",
                                  "--mca", "oob_tcp_if_include", "lo", "--mca", "mpi_yield_when_idle", "1"};
  if (geteuid() == 0) cmd.push_back("--allow-run-as-root");
  if (!r.hostfile.empty()) cmd.insert(cmd.end(), {"--hostfile", r.hostfile});
  for (char** e = environ; *e; ++e) {
    const std::string var(*e);
    if (var.rfind("SIMT_", 0) == 0) cmd.insert(cmd.end(), {"-x", var.substr(0, var.find('='))});
  }
  cmd.push_back(r.program);
  cmd.insert(cmd.end(), r.args.begin(), r.args.end());
  return cmd;
}

void remove_job_files(const std::string& job) {
  std::error_code ec;
  for (const fs::path base : {fs::path("/dev/shm"), fs::temp_directory_path()})
    fs::remove_all(base / fmt::format("simt-{}", job), ec);
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The ranks' traces in one: each GPU keeps its number unless two ranks worked on
// the same one (then rank * 1024 + GPU), and its track is named by its rank.
json merged_timeline(const RanksRun& r) {
  json merged = {{"traceEvents", json::array()}, {"displayTimeUnit", "ns"}};
  std::set<int> taken;
  for (int k = 0; k < r.ranks; ++k) {
    std::ifstream in(rank_path(r.timeline, k));
    json trace = in ? json::parse(in, nullptr, false) : json();
    if (!trace.is_object() || !trace.contains("traceEvents")) continue;
    std::set<int> mine;  // the GPUs this rank put work on (not those it only named)
    for (const json& e : trace["traceEvents"])
      if (e.value("ph", "") == "X") mine.insert(e.value("pid", 0));
    const bool clash = std::any_of(mine.begin(), mine.end(), [&](int p) { return taken.contains(p); });
    for (json e : trace["traceEvents"]) {
      if (!mine.contains(e.value("pid", 0))) continue;
      const int pid = e.value("pid", 0) + (clash ? 1024 * k : 0);
      e["pid"] = pid;
      taken.insert(pid);
      if (e.value("name", "") == "process_name" && e.contains("args"))
        e["args"]["name"] = fmt::format("rank {}: {}", k, e["args"].value("name", ""));
      merged["traceEvents"].push_back(std::move(e));
    }
  }
  return merged;
}

}  // namespace

void check_mpirun() {
  if (!on_path("mpirun"))
    throw std::invalid_argument(
        "--ranks starts one process per rank with Open MPI's mpirun, which is not installed: install openmpi-bin and "
        "libopenmpi-dev (scripts/install-deps.sh does), or use --gpus N for N GPUs in one process");
}

int run_ranks(const RanksRun& r) {
  const std::string job = new_job_name();
  setenv("SIMT_JOB", job.c_str(), 1);
  const std::vector<std::string> cmd = mpirun_command(r);
  const int status = run_program(cmd.front(), std::vector<std::string>(cmd.begin() + 1, cmd.end()));
  unsetenv("SIMT_JOB");
  remove_job_files(job);
  return status;
}

std::size_t merge_rank_reports(const RanksRun& r, const std::string& device, bool json_to_stderr) {
  std::error_code ec;
  json launches = json::array();
  std::size_t failed = 0;
  for (int k = 0; k < r.ranks; ++k) {
    const std::string report = rank_path(r.report, k), tables = rank_path(r.tables, k);
    if (!json_to_stderr) {
      fmt::print(stderr, "\n======== rank {} ========\n{}", k, read_text(tables));
      report_kernel_times(report, "", device, false);
    }
    failed += launches_with_errors(report);
    std::ifstream in(report);
    json mine = in ? json::parse(in, nullptr, false) : json();
    if (mine.is_array())
      for (json& l : mine) {
        l["rank"] = k;
        launches.push_back(std::move(l));
      }
    fs::remove(report, ec);
    fs::remove(tables, ec);
  }
  std::ofstream(r.report) << launches.dump(1) << "\n";
  if (json_to_stderr) fmt::print(stderr, "{}\n", launches.dump(2));
  std::ofstream(r.timeline) << merged_timeline(r).dump(1) << "\n";
  for (int k = 0; k < r.ranks; ++k) fs::remove(rank_path(r.timeline, k), ec);
  if (!json_to_stderr) fmt::print(stderr, "\n======== all {} ranks ========\n{}", r.ranks, clock_summary(r.timeline));
  return failed;
}

}  // namespace simt::cli
