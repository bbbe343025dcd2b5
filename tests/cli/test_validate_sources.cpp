// `simt validate main.cpp a.cu b.cu`: a program of several sources, as simt exec builds
// it (tests/frontend/multi_source). Without a GPU: the command it names for the GPU
// half lists every source; with the simulator's own digests planted as the GPU's,
// every launch compares identical; a missing source is refused before any build.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

const std::string kDir = std::string(SIMT_SOURCE_DIR) + "/tests/frontend/multi_source/";
const std::string kSources = kDir + "main.cpp " + kDir + "scale.cu " + kDir + "sum.cu";

struct Result {
  int status;
  std::string out;  // stdout and stderr
};

Result shell(const std::string& cmd) {
  const fs::path out = fs::temp_directory_path() / fmt::format("simt-validate-sources-{}.txt", getpid());
  const int st = std::system((cmd + " > " + out.string() + " 2>&1").c_str());
  std::ifstream f(out);
  std::stringstream s;
  s << f.rdbuf();
  fs::remove(out);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, s.str()};
}

}  // namespace

TEST_CASE("simt validate main.cpp scale.cu sum.cu builds every source and compares every launch") {
  const fs::path tmp = fs::temp_directory_path() / fmt::format("simt-validate-sources-{}", getpid());
  const fs::path gpu = tmp / "gpu";
  fs::create_directories(gpu);
  const std::string env = "SIMT_CACHE_DIR=" + (tmp / "cache").string() + " ";
  // The GPU's results, planted: the simulator's own digests of the same program.
  const Result planted = shell(env + "SIMT_OPTIONS=validate_digests=" + (gpu / "gpu.digests").string() + " " SIMT_BIN
                             " exec " + kSources);
  REQUIRE(planted.status == 0);
  const Result v = shell(env + SIMT_BIN " validate " + kSources + " --gpu-results " + gpu.string());
  CHECK(v.status == 0);
  CHECK(v.out.find("building and running " + kSources + " on the simulator") != std::string::npos);
  CHECK(v.out.find("2/2 launches identical") != std::string::npos);
  // The program's arguments still come after --, a source's name included.
  CHECK(shell(env + SIMT_BIN " validate " + kSources + " --gpu-results " + gpu.string() + " -- other.cu").status == 0);
  fs::remove_all(tmp);
}

TEST_CASE("simt validate with several sources: no GPU names every source; a missing one is refused first") {
  if (std::system("nvidia-smi -L > /dev/null 2>&1") != 0) {  // the GPU half would run where there is one
    const Result skipped = shell(SIMT_BIN " validate " + kSources);
    CHECK(skipped.status == 77);
    CHECK(skipped.out.find("validate_gpu.sh DIR " + kSources + " and pass --gpu-results") != std::string::npos);
  }
  const Result missing = shell(SIMT_BIN " validate " + kSources + " " + kDir + "absent.cu");
  CHECK(missing.status == 2);
  CHECK(missing.out.find("absent.cu: no such file") != std::string::npos);
}
