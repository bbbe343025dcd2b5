// What the front-end suites share: running `simt exec` on a test program and
// reading its launches' JSON.
#pragma once
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace simt::frontend_test {

inline const std::string kSource = SIMTLAB_SOURCE_DIR;
inline const std::string kTests = kSource + "/tests/frontend/";

struct Run {
  int status;
  std::string out;
};

inline Run run(const std::string& cmd) {
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p);
  std::string out;
  std::array<char, 4096> buf;
  while (std::size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  int st = pclose(p);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

inline std::string read(const std::string& path) {
  std::ifstream f(path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

inline std::string temp(const std::string& name) { return "/tmp/simtlab-fe-" + std::to_string(getpid()) + "-" + name; }

struct Exec {
  Run run;              // stdout only (the report is in the JSON)
  std::string stderr_;  // the tables and diagnostics
  nlohmann::json launches;
};

// simt exec FILE; stdout, stderr and the launches' JSON.
// `options`: more options of simt exec (-I, -D ...); `env`: variable assignments for
// the program, e.g. "SIMT_OPTIONS=watchdog_insts=1000".
inline Exec exec(const std::string& file, const std::string& options = "", const std::string& env = "") {
  std::string json = temp("launches.json"), err = temp("stderr.txt");
  Exec e;
  e.run = run((env.empty() ? "" : "env " + env + " ") + std::string(SIMT_BIN) + " exec " + options + " " + file + " --json=" + json + " 2>" + err);
  e.stderr_ = read(err);
  std::string text = read(json);
  e.launches = text.empty() ? nlohmann::json::array() : nlohmann::json::parse(text);
  std::remove(json.c_str());
  std::remove(err.c_str());
  return e;
}

inline long metric(const nlohmann::json& launch, const std::string& name) {
  return launch["metrics"].value(name, -1L);
}

inline const std::string kLdReq = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
inline const std::string kLdSec = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
inline const std::string kStReq = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
inline const std::string kStSec = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
inline const std::string kFadd = "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum";
inline const std::string kFmul = "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum";
inline const std::string kDadd = "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum";
inline const std::string kDmul = "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum";

// Every counter of every launch equal (wall time and the like are not counters),
// except the metrics in `fp_sequence_metrics` for launches that divide or call a
// math function: there the compiler front end counts the instructions nvcc expands
// them into (docs/counters.md, "Math functions"), which differ between two programs
// that compute the same values differently.
inline void check_same_counters(const nlohmann::json& a, const nlohmann::json& b,
                                const std::vector<std::string>& fp_sequence_metrics = {}) {
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    const bool expands = a[i]["metrics"].value("simt__thread_inst_fdiv.sum", 0) > 0 ||
                         a[i]["metrics"].value("simt__thread_inst_fsqrt.sum", 0) > 0;
    for (auto& [name, value] : a[i]["metrics"].items()) {
      if (name.rfind("smsp__inst_executed", 0) == 0 || name.rfind("smsp__thread_inst_executed", 0) == 0)
        continue;  // the instruction estimate exists only under the compiler front end
      if (expands && std::find(fp_sequence_metrics.begin(), fp_sequence_metrics.end(), name) != fp_sequence_metrics.end())
        continue;
      INFO("launch " << i << " (" << a[i]["kernel"] << "), " << name);
      CHECK(b[i]["metrics"].value(name, nlohmann::json()) == value);
    }
  }
}

// The counters that must equal Nsight Compute's for the kernels simtlab ships
// (docs/counters.md): global requests and sectors, shared wavefronts and bank
// conflicts, thread-level FADD/FMUL/FFMA.
inline const std::vector<std::string> kDeterministicMetrics = {
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"};

// An `ncu --csv` metrics file (docs/validation/data/ncu_*.csv): per launch ID, each
// metric's value. The lines before the header are ncu's own messages.
inline std::vector<std::map<std::string, long>> ncu_launches(const std::string& path) {
  std::ifstream f(path);
  REQUIRE(f);
  std::vector<std::map<std::string, long>> launches;
  std::string line;
  while (std::getline(f, line)) {
    if (line.size() < 2 || line[0] != '"' || line.rfind("\"ID\"", 0) == 0) continue;
    std::vector<std::string> fields;
    for (std::size_t at = 1; at < line.size();) {  // "a","b",...,"z"
      std::size_t end = line.find('"', at);
      fields.push_back(line.substr(at, end - at));
      at = end + 3;
    }
    REQUIRE(fields.size() >= 15);
    const std::size_t id = std::stoul(fields[0]);
    if (launches.size() <= id) launches.resize(id + 1);
    std::string value = fields.back();
    value.erase(std::remove(value.begin(), value.end(), ','), value.end());
    launches[id][fields[fields.size() - 3]] = std::lround(std::stod(value));
  }
  return launches;
}

inline const std::vector<std::string> kFpSequenceMetrics = {
    "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "simt__flops.sum", "simt__thread_inst_counted.sum",
    "simt__warp_inst_counted.sum"};


}  // namespace simt::frontend_test
