// CUDA that simtlab does not run (docs/frontend.md#cuda-that-simtlab-does-not-run): one
// error per construct naming it, its file:line and what to do instead, exit 1, and no
// wall of clang's errors; what simtlab can run the way CUDA defines it (__nanosleep,
// cudaMallocAsync/cudaFreeAsync) runs.
#include "frontend_test_util.hpp"

using namespace simt::frontend_test;

namespace {

struct Refusal {
  const char* file;
  int line;
  const char* construct;  // the start of the message
};

constexpr Refusal kRefusals[] = {
    {"inline_ptx.cu", 4, "inline PTX assembly"},
    {"texture_object.cu", 2, "texture and surface objects"},
    {"dynamic_parallelism.cu", 4, "a kernel launched from device code (dynamic parallelism)"},
    {"cuda_graph.cu", 9, "CUDA graphs and stream capture"},
    {"cluster_launch.cu", 2, "thread-block clusters and cudaLaunchKernelEx"},
    {"driver_api.cu", 4, "the CUDA driver API"},
    {"memory_pool.cu", 3, "CUDA memory pools"},
};

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("each construct simtlab cannot run is one error at its line, with what to do instead") {
  for (const Refusal& r : kRefusals) {
    CAPTURE(r.file);
    const Exec e = exec(kTests + "unsupported/" + r.file);
    CHECK(e.run.status == 1);
    CHECK(e.run.out.empty());  // nothing ran
    const std::string at = "unsupported/" + std::string(r.file) + ":" + std::to_string(r.line) + ":";
    CHECK(e.stderr_.find(at) != std::string::npos);
    CHECK(e.stderr_.find(std::string(r.construct)) != std::string::npos);
    CHECK(e.stderr_.find("cannot run on simtlab: ") != std::string::npos);
    CHECK(e.stderr_.find("uses CUDA that simtlab does not run") != std::string::npos);
    CHECK(count(e.stderr_, "error:") == 2);  // the construct's line and simt's own
    CHECK(e.stderr_.find("undeclared identifier") == std::string::npos);  // clang's wall stays in its file
  }
}

TEST_CASE("a PTX path the preprocessor leaves out does not refuse the file") {
  const Exec e = exec(kTests + "unsupported/ptx_under_if.cu");
  CHECK(e.run.status == 0);
  CHECK(e.run.out == "31 1\n");
}

TEST_CASE("__nanosleep returns at once: a back-off spin wait still ends with the handed-off value") {
  const Exec e = exec(kTests + "nanosleep_backoff.cu");
  CHECK(e.run.status == 0);
  CHECK(e.run.out == "43 42 cudaSuccess\n");
}

TEST_CASE("cudaMallocAsync and cudaFreeAsync allocate and free in stream order") {
  const Exec e = exec(kTests + "malloc_async.cu");
  CHECK(e.run.status == 0);
  CHECK(e.run.out == "cudaSuccess cudaSuccess 31\n");
}
