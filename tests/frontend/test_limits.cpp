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

TEST_CASE("cudaMemset to a non-zero value past the machine's memory is refused, naming why") {
  auto e = exec(kTests + "memset_nonzero_huge.cu", "--no-races");
  CHECK(e.run.status == 0);
  if (e.run.out.rfind("skipped", 0) == 0) return;  // a machine larger than the device
  CHECK(e.run.out == "non-zero: out of memory\nzero: no error\nsmall non-zero: no error\nwritten: 1\n");
  CHECK(e.stderr_.find("needs that much of this machine's memory") != std::string::npos);
}

TEST_CASE("warps of one block hand a turn back and forth through a shared word: no deadlock, every round") {
  auto e = exec(kTests + "warp_handoff.cu");
  CHECK(e.run.status == 0);
  CHECK(e.run.out == "rounds 6, cudaSuccess\n");
  CHECK(e.stderr_.find("deadlock") == std::string::npos);
}

// Lines of tests/cuda/runtime_errors_main.cu as CUDA 13 printed them on the H200
// (tests/cuda/runtime_errors_h200.txt; docs/validation/h200-runtime-errors.md).
TEST_CASE("device heap, limits, memory info, sticky errors and cudaDeviceReset as in CUDA") {
  auto e = exec(kTests + "../cuda/runtime_errors_main.cu");
  const std::string& out = e.run.out;
  auto has = [&](const std::string& line) {
    INFO(line);
    CHECK(out.find(line + "\n") != std::string::npos);
  };
  has("malloc heap default 8388608");
  has("total equals totalGlobalMem 1, free <= total 1, free > 90% of total 1");
  has("4 GiB allocations cover 90% of free memory 1, fit in it 1");
  has("the allocation past the capacity             2 cudaErrorMemoryAllocation");
  has("cudaMalloc after freeing them                0 cudaSuccess");
  has("malloc(1 TiB) is null 1");
  has("1 MiB blocks: at least 4 1, at most 8 1");
  has("cudaDeviceSetLimit(MallocHeapSize) after use 1 cudaErrorInvalidValue");
  has("cudaDeviceSynchronize again                  700 cudaErrorIllegalAddress");
  has("cudaGetLastError again                       0 cudaSuccess");
  has("cudaMalloc                                   700 cudaErrorIllegalAddress");
  has("launch after the fault                       700 cudaErrorIllegalAddress");
  has("cudaGetDeviceCount                           0 cudaSuccess");
  has("cudaGetLastError after the reset             700 cudaErrorIllegalAddress");
  has("cudaMalloc after the reset                   46 cudaErrorDevicesUnavailable");
  has("== end");
}

TEST_CASE("a device free of a block freed already stops the block at its line, even as the kernel's last call") {
  auto e = exec(kTests + "device_free_twice.cu");
  CHECK(e.run.status == 1);
  CHECK(e.run.out == "cudaErrorIllegalAddress\n");
  CHECK(e.stderr_.find("device_free_twice.cu:13") != std::string::npos);
  CHECK(e.stderr_.find("which device malloc did not return or which was freed already") != std::string::npos);
}
