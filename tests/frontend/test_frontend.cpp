// The compiler front end end to end: unchanged CUDA files (tests/frontend/*.cu)
// built by `simt exec --frontend=clang`, their counters checked against numbers
// worked out by hand and against the f32 (port) front end on the same kernels.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

const std::string kSource = SIMTLAB_SOURCE_DIR;
const std::string kTests = kSource + "/tests/frontend/";

struct Run {
  int status;
  std::string out;
};

Run run(const std::string& cmd) {
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p);
  std::string out;
  std::array<char, 4096> buf;
  while (std::size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  int st = pclose(p);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

std::string read(const std::string& path) {
  std::ifstream f(path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string temp(const std::string& name) { return "/tmp/simtlab-fe-" + std::to_string(getpid()) + "-" + name; }

struct Exec {
  Run run;              // stdout only (the report is in the JSON)
  std::string stderr_;  // the tables and diagnostics
  nlohmann::json launches;
};

// simt exec FILE with the given front end; stdout, stderr and the launches' JSON.
// `env`: variable assignments for the program, e.g. "SIMT_WATCHDOG_INSTS=1000".
Exec exec(const std::string& file, const std::string& frontend = "clang", const std::string& env = "") {
  std::string json = temp("launches.json"), err = temp("stderr.txt");
  Exec e;
  e.run = run((env.empty() ? "" : "env " + env + " ") + std::string(SIMT_BIN) + " exec --frontend=" + frontend + " " +
              file + " --json=" + json + " 2>" + err);
  e.stderr_ = read(err);
  std::string text = read(json);
  e.launches = text.empty() ? nlohmann::json::array() : nlohmann::json::parse(text);
  std::remove(json.c_str());
  std::remove(err.c_str());
  return e;
}

long metric(const nlohmann::json& launch, const std::string& name) {
  return launch["metrics"].value(name, -1L);
}

const std::string kLdReq = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
const std::string kLdSec = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
const std::string kStReq = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
const std::string kFadd = "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum";
const std::string kFmul = "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum";
const std::string kDadd = "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum";
const std::string kDmul = "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum";

// Every counter of every launch equal (wall time and the like are not counters).
void check_same_counters(const nlohmann::json& a, const nlohmann::json& b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (auto& [name, value] : a[i]["metrics"].items()) {
      if (name.rfind("smsp__inst_executed", 0) == 0 || name.rfind("smsp__thread_inst_executed", 0) == 0)
        continue;  // the instruction estimate exists only under the compiler front end
      INFO("launch " << i << " (" << a[i]["kernel"] << "), " << name);
      CHECK(b[i]["metrics"].value(name, nlohmann::json()) == value);
    }
  }
}

}  // namespace

TEST_CASE("a typedef'd element type is counted exactly like float") {
  Exec td = exec(kTests + "typedef_element.cu");
  Exec fl = exec(kTests + "float_element.cu", "port");
  CHECK(td.run.status == 0);
  CHECK(td.run.out == "c[4095] = 8190.0\n");
  REQUIRE(td.launches.size() == 1);
  CHECK(metric(td.launches[0], kLdReq) == 256);   // two loads per warp, 128 warps
  CHECK(metric(td.launches[0], kLdSec) == 1024);
  CHECK(metric(td.launches[0], kStReq) == 128);
  CHECK(metric(td.launches[0], kFadd) == 4096);
  check_same_counters(td.launches, fl.launches);
}

TEST_CASE("plain float: the clang front end equals the f32 front end") {
  check_same_counters(exec(kTests + "float_element.cu").launches, exec(kTests + "float_element.cu", "port").launches);
}

TEST_CASE("local index arrays passed to __device__ helpers are the thread's own") {
  Exec e = exec(kTests + "local_index_arrays.cu");
  CHECK(e.run.status == 0);
  CHECK(e.run.out == "out[1] = 128.0, out[33] = 130.0\n");
  REQUIRE(e.launches.size() == 1);
  // Per warp: in_shape[1], in_shape[0], in_strides[0], in_strides[1], in[...]; 64 warps.
  CHECK(metric(e.launches[0], kLdReq) == 5 * 64);
  CHECK(metric(e.launches[0], kStReq) == 64);
  // `* 2.0f` is FADD x, x in nvcc's code: ncu measured FADD 2048, FMUL 0 on the H200
  // (docs/validation/h200-frontend.md).
  CHECK(metric(e.launches[0], kFadd) == 2048);
  CHECK(metric(e.launches[0], kFmul) == 0);
  CHECK(e.launches[0]["diagnostics"].empty());
}

TEST_CASE("a struct of floats through a pointer, and operator[] of a device struct") {
  Exec e = exec(kTests + "struct_through_pointer.cu");
  CHECK(e.run.status == 0);
  CHECK(e.run.out == "r[3] = 14.0\n");
  REQUIRE(e.launches.size() == 1);
  CHECK(metric(e.launches[0], kLdReq) == 3 * 32);   // x, y, z: each loaded once per thread
  CHECK(metric(e.launches[0], kLdSec) == 36 * 32);  // 12-byte stride: 12 sectors per field per warp
  CHECK(metric(e.launches[0], kStReq) == 32);       // through View::operator[]
  CHECK(metric(e.launches[0], kFmul) == 3 * 1024);
  CHECK(metric(e.launches[0], kFadd) == 2 * 1024);
}

TEST_CASE("a kernel template launched from a host template") {
  Exec e = exec(kTests + "host_template_launch.cu");
  CHECK(e.run.status == 0);
  CHECK(e.run.out == "3069.0 1533.0\n");
  REQUIRE(e.launches.size() == 2);
  CHECK(metric(e.launches[0], kFmul) == 1024);
  CHECK(metric(e.launches[0], kFadd) == 1024);
  CHECK(metric(e.launches[1], kDmul) == 512);
  CHECK(metric(e.launches[1], kDadd) == 512);
}

TEST_CASE("the sum of two ?: expressions is one FADD per thread") {
  Exec e = exec(kTests + "ternary_sum.cu");
  CHECK(e.run.out == "2.0 1.0\n");
  REQUIRE(e.launches.size() == 1);
  CHECK(metric(e.launches[0], kFadd) == 512);
  CHECK(metric(e.launches[0], kLdReq) == 16 + 8);  // a[j] only where j < n: the first 8 warps
}

TEST_CASE("threads that return before a barrier: the launch runs, with a warning naming the barrier") {
  Exec e = exec(kTests + "early_return.cu");
  CHECK(e.run.status == 0);
  CHECK(e.run.out == "128.0 72.0 no error\n");
  REQUIRE(e.launches.size() == 1);
  REQUIRE(e.launches[0]["diagnostics"].size() == 1);
  CHECK(e.launches[0]["diagnostics"][0]["severity"] == "warning");
  CHECK(e.stderr_.find("tests/frontend/early_return.cu:13") != std::string::npos);
  CHECK(e.stderr_.find("threads 72-127 had exited") != std::string::npos);
  // Block 0: 4 warps at the barrier; block 1: warps 0-2 (warp 3 had exited entirely).
  CHECK(metric(e.launches[0], "simt__warp_barriers.sum") == 7);
}

TEST_CASE("one barrier reached along two paths is one barrier") {
  Exec e = exec(kTests + "branch_barrier.cu");
  CHECK(e.run.status == 0);
  CHECK(e.run.out == "2.0 3.0 no error\n");
  REQUIRE(e.launches.size() == 1);
  CHECK(e.launches[0]["diagnostics"].empty());
  CHECK(metric(e.launches[0], kFadd) == 64);  // ncu on the H200: 32 adds + 32 `v * 2.0f` as FADD
  CHECK(metric(e.launches[0], kFmul) == 0);
}

TEST_CASE("device printf of a char array") {
  Run r = run(std::string(SIMT_BIN) + " exec --frontend=clang " + kTests + "printf_char_array.cu 2>/dev/null | sort");
  CHECK(r.out == "block 0 of 2: 0.50\nblock 1 of 2: 0.50\n");
}

TEST_CASE("a spin-wait is stopped by the watchdog, naming the line it spins on") {
  Exec e = exec(kTests + "spin_wait.cu");
  CHECK(e.run.status == 0);
  CHECK(e.run.out == "unspecified launch failure\n");
  CHECK(e.stderr_.find("watchdog") != std::string::npos);
  CHECK(e.stderr_.find("tests/frontend/spin_wait.cu:7") != std::string::npos);
}

TEST_CASE("a spin that touches no memory is stopped by the instruction watchdog, naming the loop's line") {
  Exec e = exec(kTests + "register_spin.cu", "clang", "SIMT_WATCHDOG_INSTS=1000000");
  CHECK(e.run.status == 0);
  // 400000 laps of about 7 instructions pass: the budget is per barrier interval.
  CHECK(e.run.out == "finite: no error\nspin: unspecified launch failure\n");
  CHECK(e.stderr_.find("watchdog: this thread ran 1000000 instructions") != std::string::npos);
  CHECK(e.stderr_.find("tests/frontend/register_spin.cu:11") != std::string::npos);
}

TEST_CASE("the instruction estimate: the H200's instructions per loop iteration, and divergence") {
  Exec e = exec(kTests + "instruction_mix.cu");
  REQUIRE(e.launches.size() == 5);
  CHECK(e.run.out == "no error\n");
  auto insts = [&](int i) { return double(metric(e.launches[i], "smsp__inst_executed.sum")); };
  const double warps = 4 * 8;
  // micro_int_issue and micro_int_div on the H200 (ncu smsp__inst_executed.sum,
  // docs/validation/h200-instructions.md): 5.75 and 21.0 warp instructions per iteration.
  const double issue = (insts(1) - insts(0)) / (768 * warps), div = (insts(3) - insts(2)) / (192 * warps);
  INFO("per iteration: int_issue " << issue << ", int_div " << div);
  CHECK(issue == doctest::Approx(5.75).epsilon(0.25));
  CHECK(div == doctest::Approx(21.0).epsilon(0.25));
  // Half of each warp loops: warp-level follows the busiest lane, thread-level the 16 that ran.
  const nlohmann::json& d = e.launches[4];
  const double ratio = double(metric(d, "smsp__thread_inst_executed.sum")) / double(metric(d, "smsp__inst_executed.sum"));
  CHECK(ratio > 15.5);
  CHECK(ratio < 17.5);
  for (const nlohmann::json& l : e.launches)
    CHECK(metric(l, "smsp__inst_executed.sum") > metric(l, "simt__warp_inst_counted.sum"));
}

TEST_CASE("simt cc -o never overwrites its input") {
  std::string src = temp("keep.cu");
  std::ofstream(src) << "int main() { return 0; }\n";
  Run r = run(std::string(SIMT_BIN) + " cc --frontend=clang " + src + " -o " + src + " 2>&1");
  CHECK(r.status != 0);
  CHECK(r.out.find("would overwrite the input file") != std::string::npos);
  CHECK(read(src) == "int main() { return 0; }\n");
  std::remove(src.c_str());
}

TEST_CASE("the examples and the pattern validation program: every counter equals the f32 front end's") {
  for (const char* file : {"examples/classic_reduce.cu", "examples/tutorial_idioms.cu", "tests/cuda/patterns_main.cu"}) {
    INFO(file);
    Exec clang = exec(kSource + "/" + file), port = exec(kSource + "/" + file, "port");
    CHECK(clang.run.status == 0);
    CHECK(clang.run.out == port.run.out);
    CHECK(clang.launches.size() > 2);
    check_same_counters(clang.launches, port.launches);
  }
}

TEST_CASE("a __device__ variable is refused at compile time, naming the line") {
  Run r = run(std::string(SIMT_BIN) + " exec --frontend=clang " + kTests + "device_variable.cu 2>&1");
  CHECK(r.status != 0);
  CHECK(r.out.find("device_variable.cu:6:") != std::string::npos);
  CHECK(r.out.find("__device__ variable counter is not supported") != std::string::npos);
}

TEST_CASE("__constant__ data: cudaMemcpyToSymbol, reads not counted as global loads") {
  Exec e = exec(kTests + "constant_table.cu");
  CHECK(e.run.status == 0);
  CHECK(e.run.out == "2.0 8.0\n");
  REQUIRE(e.launches.size() == 1);
  CHECK(metric(e.launches[0], kLdReq) == 0);
  CHECK(metric(e.launches[0], kStReq) == 1);
  CHECK(metric(e.launches[0], kFadd) == 32);  // `* 2.0f`: FADD x, x, as ncu measured on the H200
  CHECK(metric(e.launches[0], kFmul) == 0);
}

TEST_CASE("llm.c-style set-up: cuBLAS handles, a user cudaCheck, managed memory, 128-bit packed accesses") {
  Exec e = exec(kTests + "llmc_style.cu");
  CHECK(e.run.status == 0);
  CHECK(e.run.out == "sms>0 1, major 9, out[4095] = 2047.5\n");
  REQUIRE(e.launches.size() == 1);
  CHECK(metric(e.launches[0], kLdReq) == 32);   // one 16-byte load per thread (LDG.128): 32 warps
  CHECK(metric(e.launches[0], kLdSec) == 512);  // 512 bytes = 16 sectors per request
  CHECK(metric(e.launches[0], kStReq) == 32);
  CHECK(metric(e.launches[0], kFmul) == 4096);
}

TEST_CASE("a device assert in a ctypes-loaded library fails the launch, not the Python process") {
  std::string lib = temp("assert_lib.so");
  Run b = run(std::string(SIMT_BIN) + " cc --shared " + kTests + "assert_lib.cu -o " + lib + " 2>&1");
  REQUIRE(b.status == 0);
  Run r = run("/usr/bin/python3 -c \"import ctypes; l = ctypes.CDLL('" + lib +
              "'); print('code', l.run_assert()); print('alive')\" 2>/dev/null");
  CHECK(r.status == 0);
  CHECK(r.out == "code 710\nalive\n");
  std::remove(lib.c_str());
}
