// End to end: `simt exec` and `simt cc` as a user runs them, the syntax step included.
#include "../frontend/frontend_test_util.hpp"  // run, read: what the front-end suites share

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

using simt::frontend_test::kSource;

using simt::frontend_test::read;
using simt::frontend_test::run;
using simt::frontend_test::Run;

std::string temp(const std::string& name) { return "/tmp/simtlab-test-" + std::to_string(getpid()) + "-" + name; }

}  // namespace

TEST_CASE("simt exec: a classic CUDA program runs unchanged; stdout is the program's, JSON per launch") {
  std::string json = temp("launches.json");
  Run r = run(std::string(SIMT_BIN) + " exec " + kSource + "/examples/classic_reduce.cu --json=" + json + " 2>/dev/null");
  CHECK(r.status == 0);
  CHECK(r.out == "sum = -6.50\nscaled = -4.00 -3.50 -3.00 -2.50\ndot = 24571.1250\n");
  auto launches = nlohmann::json::parse(read(json));
  REQUIRE(launches.size() == 3);
  CHECK(launches[0]["kernel"] == "block_sum");
  CHECK(launches[0]["grid"] == nlohmann::json::array({64, 1, 1}));
  CHECK(launches[0]["metrics"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] == 2048);
  CHECK(launches[1]["kernel"] == "scale4");
  CHECK(launches[1]["metrics"]["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == 128);  // one float4 load per thread
  CHECK(launches[2]["dynamic_shared_bytes"] == 1024);
  // Every launch carries its kernel time, each at least the launch overhead.
  for (const auto& l : launches)
    CHECK(l["time"]["predicted_s"].get<double>() > l["time"]["launch_overhead_s"].get<double>());
  std::remove(json.c_str());
}

TEST_CASE("simt exec: after the reports, every launch's time and the total") {
  Run r = run(std::string(SIMT_BIN) + " exec " + kSource + "/examples/classic_reduce.cu 2>&1 >/dev/null");
  CHECK(r.status == 0);
  CHECK(r.out.find("kernel time on H200") != std::string::npos);
  CHECK(r.out.find("[launch 3] dot_double:") != std::string::npos);
  CHECK(r.out.find("total ") != std::string::npos);
  CHECK(r.out.find("3 launches one after another") != std::string::npos);
}

TEST_CASE("simt exec: the program's arguments and exit status pass through") {
  std::string src = temp("args.cu");
  std::ofstream(src) << "#include <cstdio>\n#include <cstdlib>\n\nint main(int argc, char** argv) {\n"
                        "  printf(\"%d %s\\n\", argc, argv[1]);\n  return atoi(argv[2]);\n}\n";
  Run r = run(std::string(SIMT_BIN) + " exec " + src + " -- hello 3 2>/dev/null");
  CHECK(r.out == "3 hello\n");
  CHECK(r.status == 3);
  std::remove(src.c_str());
}

TEST_CASE("simt exec: compiler errors point at the user's file and line") {
  std::string src = temp("broken.cu");
  std::ofstream(src) << "#include <cuda_runtime.h>\n\n__global__ void k(float* a) {\n  a[0] = nope;\n}\n";
  Run r = run(std::string(SIMT_BIN) + " exec " + src + " 2>&1");
  CHECK(r.status != 0);
  CHECK(r.out.find(src + ":4:10: error: ") != std::string::npos);  // the compiler's own wording follows
  CHECK(r.out.find("nope") != std::string::npos);
  std::remove(src.c_str());
}

TEST_CASE("simt exec: what the syntax step cannot rewrite is a file:line error and exit status 1") {
  std::string src = temp("shared.cu");
  std::ofstream(src) << "#include <cuda_runtime.h>\n__global__ void k() {\n  extern __shared__ float s;\n}\n"
                        "int main() { k<<<1, 32>>>(); }\n";
  Run r = run(std::string(SIMT_BIN) + " exec " + src + " 2>&1");
  CHECK(r.status == 1);
  CHECK(r.out.find(src + ":3:3: error: extern __shared__ must have the form") != std::string::npos);
  std::remove(src.c_str());
}

TEST_CASE("simt exec: the program's own headers go through the syntax step with it") {
  std::string dir = temp("multi");
  std::filesystem::create_directories(dir + "/include");
  std::ofstream(dir + "/include/kern.cuh") << "#pragma once\n#include <cuda_runtime.h>\n"
                                              "__global__ void relu(float* a, int n) {\n"
                                              "  extern __shared__ float s[];\n"
                                              "  int i = threadIdx.x;\n  s[i] = a[i];\n  __syncthreads();\n"
                                              "  if (i < n) a[i] = max(s[i], 0.0f);\n}\n";
  std::ofstream(dir + "/main.cu") << "#include <cstdio>\n#include \"include/kern.cuh\"\n\nint main() {\n"
                                     "  float h[32], *d;\n  for (int i = 0; i < 32; ++i) h[i] = i - 16;\n"
                                     "  cudaMalloc(&d, sizeof h);\n  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);\n"
                                     "  relu<<<1, 32, 32 * sizeof(float)>>>(d, 32);\n"
                                     "  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);\n"
                                     "  printf(\"%g %g\\n\", h[0], h[31]);\n}\n";
  std::string json = dir + "/launches.json";
  Run r = run(std::string(SIMT_BIN) + " exec " + dir + "/main.cu --json=" + json + " 2>/dev/null");
  CHECK(r.status == 0);
  CHECK(r.out == "0 15\n");
  auto launches = nlohmann::json::parse(read(json));
  REQUIRE(launches.size() == 1);
  // The header's kernel is counted as the file's own would be:
  CHECK(launches[0]["metrics"]["smsp__sass_inst_executed_op_shared_st.sum"] == 1);
  CHECK(launches[0]["metrics"]["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == 1);
  std::filesystem::remove_all(dir);
}
