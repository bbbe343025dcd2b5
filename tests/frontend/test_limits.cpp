// Requests past what the simulated device can hold end at once with CUDA's error,
// never a hang or unbounded growth.
#include "frontend_test_util.hpp"

using namespace simt::frontend_test;

TEST_CASE("cudaMalloc of SIZE_MAX or 4 EiB fails at once; the device still allocates afterwards") {
  auto e = exec(kTests + "huge_malloc.cu");
  CHECK(e.run.status == 0);
  CHECK(e.run.out == "SIZE_MAX: out of memory (nil)\n4 EiB: out of memory\n1 KiB after: no error\n");
}

TEST_CASE("the watchdog ends a register spin and a lock nobody releases, naming each") {
  auto e = exec(kTests + "spin_forever.cu", "", "SIMT_OPTIONS=watchdog_insts=1000000");
  CHECK(e.run.status == 1);  // the program exits 0, but its launches failed
  CHECK(e.run.out == "flag: unspecified launch failure\nlock: unspecified launch failure\n");
  CHECK(e.stderr_.find("ran 1000000 instructions") != std::string::npos);
  CHECK(e.stderr_.find("spin_forever.cu:8") != std::string::npos);
  CHECK(e.stderr_.find("atomics left the word") != std::string::npos);
  CHECK(e.stderr_.find("kernel take_held_lock") != std::string::npos);
}

TEST_CASE("cudaMemset of 40 GiB to zero costs no memory, and what a kernel wrote is zeroed") {
  auto e = exec(kTests + "memset_huge.cu", "--no-races");
  CHECK(e.run.status == 0);
  CHECK(e.run.out == "after the kernel: 0 7\nafter the second memset: 0 0\npeak below 2 GiB: yes\n");
}
