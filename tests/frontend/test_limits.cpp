// Requests past what the simulated device can hold end at once with CUDA's error,
// never a hang or unbounded growth.
#include "frontend_test_util.hpp"

using namespace simt::frontend_test;

TEST_CASE("cudaMalloc of SIZE_MAX or 4 EiB fails at once; the device still allocates afterwards") {
  auto e = exec(kTests + "huge_malloc.cu");
  CHECK(e.run.status == 0);
  CHECK(e.run.out == "SIZE_MAX: out of memory (nil)\n4 EiB: out of memory\n1 KiB after: no error\n");
}
