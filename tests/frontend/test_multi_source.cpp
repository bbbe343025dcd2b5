// `simt exec main.cpp a.cu b.cu`: a program of several sources, as NVIDIA's histogram,
// reduction, scalarProd and simpleAtomicIntrinsics samples are (docs/frontend.md).
#include "frontend_test_util.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace simt::frontend_test;

namespace {
const std::string kDir = kTests + "multi_source/";
const std::string kSources = kDir + "main.cpp " + kDir + "scale.cu " + kDir + "sum.cu";
}  // namespace

TEST_CASE("simt exec main.cpp scale.cu sum.cu: host C++ and two .cu files linked into one program") {
  Exec e = exec(kSources);
  CHECK(e.run.status == 0);
  CHECK(e.run.out == "h[999] = 1998.0, sum = 1000000.0\n");
  REQUIRE(e.launches.size() == 2);
  CHECK(e.launches[0]["kernel"].get<std::string>().find("scale_kernel") != std::string::npos);
  CHECK(e.launches[1]["kernel"].get<std::string>().find("sum_kernel") != std::string::npos);
  // scale.cu's __device__ one_more, called from sum.cu's kernel, counts its FADDs
  CHECK(metric(e.launches[1], kFadd) == 1000);
  CHECK(metric(e.launches[0], kFadd) + metric(e.launches[0], kFmul) == 1000);  // 2 * x: clang makes it x + x
  // after --, a source's name is the program's argument; before it, one of its sources
  Run after = run(std::string(SIMT_BIN) + " exec " + kSources + " 7 -- other.cu 2>&1");
  CHECK(after.status == 0);
  CHECK(after.out.find("h[999] = 1998.0") != std::string::npos);
}

TEST_CASE("several sources: a missing file, a file given twice, an output over a source are refused before the build") {
  auto simt = [](const std::string& args) { return run(std::string(SIMT_BIN) + " " + args + " 2>&1"); };
  Run twice = simt("exec " + kSources + " " + kDir + "scale.cu");
  CHECK(twice.status == 2);
  CHECK(twice.out.find("scale.cu is given twice") != std::string::npos);
  Run same = simt("exec " + kSources + " " + kDir + "../multi_source/sum.cu");
  CHECK(same.status == 2);
  CHECK(same.out.find("are the same file") != std::string::npos);
  Run missing = simt("exec " + kSources + " " + kDir + "absent.cu");
  CHECK(missing.status == 2);
  CHECK(missing.out.find("absent.cu: no such file") != std::string::npos);
  Run json = simt("exec --json=" + kDir + "sum.cu " + kSources);
  CHECK(json.status == 2);
  CHECK(json.out.find("would overwrite the input file") != std::string::npos);
  Run cc = simt("cc " + kSources + " -o " + kDir + "scale.cu");
  CHECK(cc.status == 2);
  CHECK(cc.out.find("would overwrite the input file") != std::string::npos);
  // a function defined in a file not given: the link fails, saying which sources it had
  Run unlinked = simt("exec " + kDir + "main.cpp " + kDir + "scale.cu");
  CHECK(unlinked.status == 1);
  CHECK(unlinked.out.find("undefined reference to `sum_plus_count_on_device'") != std::string::npos);
  CHECK(unlinked.out.find("main.cpp and its 1 other source did not link") != std::string::npos);
}

TEST_CASE("simt cc builds several sources into one executable") {
  const std::string bin = temp("multi_source");
  REQUIRE(run(std::string(SIMT_BIN) + " cc " + kSources + " -o " + bin + " 2>&1").status == 0);
  Run r = run(bin + " 2>/dev/null");
  CHECK(r.status == 0);
  CHECK(r.out == "h[999] = 1998.0, sum = 1000000.0\n");
  std::remove(bin.c_str());
}
