// simt table / compare on real runs of the built-in kernels: every format, the
// ratios of compare, and the usage errors.
#include "run_simt.hpp"

#include <string>

using simt_test::simt;

namespace {

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("simt table: one row per version, counters that tell the ladder") {
  auto r = simt("table transpose_shared transpose_padded --metrics bank_conflicts,st_sectors_per_request --format csv",
                false);
  REQUIRE(r.status == 0);
  CHECK(r.out.rfind("kernel,bank conflicts,st sect/req\n", 0) == 0);
  // The padded tile removes every conflict; both store 4 sectors per request.
  CHECK(r.out.find("transpose_padded,0,4\n") != std::string::npos);
  CHECK(r.out.find("transpose_shared,0,4\n") == std::string::npos);
}

TEST_CASE("simt table: markdown, latex, one row per parameter value, a time per device") {
  auto md = simt("table vector_add --param n=1024,4096 --metrics ld_sectors,time -d H200 -d RTX-A6000 --format markdown",
                 false);
  REQUIRE(md.status == 0);
  CHECK(md.out.find("| vector_add n=1024 |") != std::string::npos);
  CHECK(md.out.find("| vector_add n=4096 |") != std::string::npos);
  CHECK(md.out.find("time RTX-A6000 (est.)") != std::string::npos);
  CHECK(count(md.out, "\n") == 4);  // heading, rule, two rows
  auto tex = simt("table vector_add --metrics ld_sectors --format latex", false);
  REQUIRE(tex.status == 0);
  CHECK(tex.out.find("\\begin{tabular}{lr}") != std::string::npos);
  CHECK(tex.out.find("ld sectors \\\\") != std::string::npos);
}

TEST_CASE("simt compare: each cell as a ratio to the first version") {
  auto r = simt("compare transpose_naive transpose_padded --metrics st_sectors", false);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("(1.00x)") != std::string::npos);
  CHECK(r.out.find("(0.12x)") != std::string::npos);  // 8x fewer store sectors through the tile
}

TEST_CASE("simt table: usage errors name the problem") {
  auto bad_column = simt("table vector_add --metrics ld_sector");
  CHECK(bad_column.status == 2);
  CHECK(bad_column.out.find("ld_sectors") != std::string::npos);  // did you mean
  auto bad_param = simt("table vector_add --param tile=16");
  CHECK(bad_param.status == 2);
  CHECK(bad_param.out.find("tile") != std::string::npos);
  CHECK(simt("table vector_add --format html").status == 2);
  CHECK(simt("table vector_add -d H20").status == 2);
  CHECK(simt("table no_such_kernel").status == 2);
}
