// simt exec never writes its reports over the learner's source, and says before the
// build when a report's folder cannot be written (exit 2), instead of exiting 0.
#include "run_simt.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

using simt_test::simt;

namespace {

std::string read(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// A copy of a small program in a scratch folder: the test may try to overwrite it.
std::filesystem::path scratch_program() {
  const auto dir = std::filesystem::temp_directory_path() / "simt-exec-outputs-test";
  std::filesystem::create_directories(dir);
  const auto file = dir / "prog.cu";
  std::filesystem::copy_file(std::string(SIMT_SOURCE_DIR) + "/tests/frontend/no_includes.cu", file,
                             std::filesystem::copy_options::overwrite_existing);
  return file;
}

}  // namespace

TEST_CASE("simt exec: --json and --timeline never overwrite the source") {
  const auto file = scratch_program();
  const std::string before = read(file);
  for (const std::string& flag : {"--json=" + file.string(), "--timeline " + file.string()}) {
    auto r = simt("exec " + flag + " " + file.string());
    CHECK(r.status == 2);
    CHECK(r.out.find("would overwrite the input file") != std::string::npos);
    CHECK(read(file) == before);
  }
}

TEST_CASE("simt exec: a report in a folder that does not exist is refused before the build") {
  const auto file = scratch_program();
  auto json = simt("exec --json=/no/such/dir/x.json " + file.string());
  CHECK(json.status == 2);
  CHECK(json.out.find("/no/such/dir") != std::string::npos);
  auto timeline = simt("exec --timeline /no/such/dir/t.json " + file.string());
  CHECK(timeline.status == 2);
  CHECK(timeline.out.find("does not exist") != std::string::npos);
}

namespace {
// Commands run in a shell whose address space is limited (`ulimit -v`, in KiB).
simt_test::Result under_address_limit(const std::string& commands) {
  return simt_test::shell("sh -c 'ulimit -v 4000000 && " + commands + "' 2>&1");
}
}  // namespace

TEST_CASE("under an address-space limit (ulimit -v) simt starts and runs, with a smaller device arena") {
  const std::string bin = SIMT_BIN;
  auto r = under_address_limit(bin + " --version && " + bin + " run vector_add --n 4096");
  CHECK(r.status == 0);
  CHECK(r.out.find("simtlab") != std::string::npos);
  CHECK(r.out.find("check: OK") != std::string::npos);
}

TEST_CASE("under an address-space limit cudaMalloc says why it refuses, and cudaMemGetInfo tells what fits") {
  auto r = under_address_limit(std::string(SIMT_BIN) + " exec " + SIMT_SOURCE_DIR +
                               "/tests/frontend/malloc_under_address_limit.cu");
  CHECK(r.status == 0);
  CHECK(r.out.find("free below total: 1") != std::string::npos);
  CHECK(r.out.find("past free: cudaErrorMemoryAllocation") != std::string::npos);
  CHECK(r.out.find("address-space limit (ulimit -v") != std::string::npos);
  CHECK(r.out.find("half of free: cudaSuccess") != std::string::npos);
}

TEST_CASE("simt roofline --counters does not price a launch that failed") {
  const auto path = std::filesystem::temp_directory_path() / "simt-failed-launch.json";
  {
    std::ofstream f(path);
    f << R"([{"kernel": "spin", "error": 719, "grid": [1,1,1], "block": [1,1,1], "metrics": {}}])";
  }
  auto r = simt("roofline -d H200 --counters " + path.string());
  CHECK(r.status == 0);
  CHECK(r.out.find("not priced: the launch failed") != std::string::npos);
  CHECK(r.out.find("1 failed launch not priced") != std::string::npos);
}

TEST_CASE("simt exec a.cu a.cu is refused (a source given twice); after -- a.cu goes to the program") {
  const std::string file = std::string(SIMT_SOURCE_DIR) + "/tests/frontend/no_includes.cu";
  auto two = simt("exec " + file + " " + file);
  CHECK(two.status == 2);
  CHECK(two.out.find("is given twice") != std::string::npos);
  CHECK(simt("exec " + file + " -- other.cu").status == 0);
}
