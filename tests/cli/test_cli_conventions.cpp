// One convention for every command (cli/exit_codes.hpp, cli/options.hpp): bad input
// gives one clear message naming the problem and exit 2 before anything runs; a run
// whose check or launch fails exits 1; nothing crashes, wraps or silently defaults.
#include "run_simt.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

using simt_test::Result;
using simt_test::simt;

namespace {

struct Case {
  const char* args;
  int status;
  const char* message;
};

void check_cases(std::initializer_list<Case> cases) {
  for (const Case& c : cases) {
    CAPTURE(c.args);
    Result r = simt(c.args);
    CHECK(r.status == c.status);
    CHECK(r.out.find(c.message) != std::string::npos);
    CHECK(r.out.find("terminate called") == std::string::npos);
    CHECK(r.out.find("what():") == std::string::npos);
  }
}

}  // namespace

TEST_CASE("usage errors exit 2 and name the problem") {
  check_cases({
      {"run vector_add --block 0", 2, "parameter --block must be from 1 to 2147483647, got 0"},
      {"run vector_add --n 4294967297", 2, "parameter --n must be from 1 to 2147483647, got 4294967297"},
      {"run vector_add --n -5", 2, "parameter --n must be from 1 to 2147483647, got -5"},
      {"run vector_add --n 1.5", 2, "parameter --n must be a whole number"},
      {"run vector_add --n lots", 2, "'lots' is not a number"},
      {"run vector_add --threads -1", 2, "--threads: the value must be from 0 to 4096"},
      {"run vector_add --lines 1x", 2, "--lines"},
      {"run vector_ad", 2, "did you mean 'vector_add'"},
      {"lsit", 2, "unknown command 'lsit'; did you mean 'list'?"},
      {"frobnicate", 2, "unknown command 'frobnicate'"},
      {"help lsit", 2, "unknown command 'lsit'; did you mean 'list'?"},
      {"", 2, "Subcommands:"},
      {"roofline -d H10 --flops 1 --bytes 1", 2, "unknown device 'H10'; did you mean 'H100-SXM'"},
      {"run vector_add -d A100-80", 2, "did you mean 'A100-80GB-SXM'"},
      {"budget serve -m lama3-8b -d H100-SXM --context 512", 2, "did you mean 'llama3-8b'"},
      {"layer -m llama3-8b -d H10", 2, "unknown device 'H10'"},
      {"run", 2, "kernel is required"},
  });
}

TEST_CASE("sizes take the same suffixes everywhere") {
  Result r = simt("run vector_add --n 2k --block 128 --json", false);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("\"grid\": [\n      16,") != std::string::npos);  // 2000 / 128 -> 16 blocks
  r = simt("run vector_add --n 2Ki --block 0x80 --json", false);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("\"grid\": [\n      16,") != std::string::npos);  // 2048 / 128
}

TEST_CASE("-d and -m are the short forms everywhere") {
  CHECK(simt("run vector_add --n 1k -d A100-80GB-SXM").out.find("simulated A100-80GB-SXM") != std::string::npos);
  CHECK(simt("layer -m gpt2-small -d H100-SXM --batch 1 --seq 128").status == 0);
}

TEST_CASE("help: simt help, simt help COMMAND, --help all exit 0") {
  Result r = simt("help");
  CHECK(r.status == 0);
  CHECK(r.out.find("Subcommands:") != std::string::npos);
  CHECK(r.out.find("budget") != std::string::npos);
  r = simt("help run");
  CHECK(r.status == 0);
  CHECK(r.out.find("Kernel name") != std::string::npos);
  CHECK(simt("run --help").status == 0);
}

TEST_CASE("a run whose launch the device refuses exits 1, with CUDA's reason") {
  Result r = simt("run vector_add --block 2048");
  CHECK(r.status == 1);
  CHECK(r.out.find("exceeds the device limit of 1024") != std::string::npos);
}

TEST_CASE("-o never overwrites the input") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "simt_cli_overwrite";
  fs::create_directories(dir);
  const fs::path src = dir / "k.cu";
  const std::string text = "__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }\nint main() { return 0; }\n";
  std::ofstream(src) << text;
  for (const char* cmd : {"cc"}) {
    CAPTURE(cmd);
    Result r = simt(std::string(cmd) + " " + src.string() + " -o " + src.string());
    CHECK(r.status == 2);
    CHECK(r.out.find("would overwrite the input file") != std::string::npos);
    std::ifstream in(src);
    std::string now((std::istreambuf_iterator<char>(in)), {});
    CHECK(now == text);
  }
  fs::remove_all(dir);
}

TEST_CASE("simt devices lists the TPUs the cost model knows, after the GPUs") {
  Result r = simt("devices");
  CHECK(r.status == 0);
  const std::string& out = r.out;
  const auto tpus = out.find("TPUs");
  CHECK(tpus != std::string::npos);
  CHECK(out.find("TPU-v5e") > tpus);
  CHECK(out.find("H200") < tpus);
}

TEST_CASE("simt devices shows half precision without tensor cores beside FP32") {
  Result r = simt("devices");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("FP16 CC") != std::string::npos);
  // A100: 78 TFLOP/s of non-tensor fp16, four times its FP32 19.5.
  const std::string a100 = r.out.substr(r.out.find("A100-80GB-SXM"), 120);
  CHECK(a100.find(" 19.5       78 ") != std::string::npos);
}
