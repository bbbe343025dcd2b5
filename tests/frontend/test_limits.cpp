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

TEST_CASE("a handoff between warps through a volatile flag with fences is no race; without them it is") {
  auto e = exec(kTests + "volatile_shared_handoff.cu");
  CHECK(e.run.status == 0);
  CHECK(e.run.out == "global 46, shared 496 31: cudaSuccess, cudaSuccess\n");
  REQUIRE(e.launches.size() == 2);
  CHECK(e.launches[0]["diagnostics"].empty());
  CHECK(e.launches[1]["diagnostics"].empty());

  // Volatile flag, no fences: the data's read is not ordered after its write.
  auto unfenced = exec(kTests + "volatile_shared_handoff.cu", "-D NO_FENCE=1");
  CHECK(unfenced.run.status != 0);
  REQUIRE(unfenced.launches.size() == 2);
  REQUIRE(unfenced.launches[0]["diagnostics"].size() == 1);
  CHECK(unfenced.launches[0]["diagnostics"][0]["kind"] == "global-memory race");
  REQUIRE(unfenced.launches[1]["diagnostics"].size() == 1);
  CHECK(unfenced.launches[1]["diagnostics"][0]["kind"] == "shared-memory race");
  CHECK(unfenced.stderr_.find("volatile_shared_handoff.cu:38") != std::string::npos);  // the consumer's read
  CHECK(unfenced.stderr_.find("volatile_shared_handoff.cu:51") != std::string::npos);  // the producer's write

  // A plain flag: a race on the flag itself, or a spin on a register that never ends.
  auto plain = exec(kTests + "volatile_shared_handoff.cu", "-D NO_VOLATILE=1", "SIMT_OPTIONS=watchdog_insts=1000000");
  CHECK(plain.run.status != 0);
  REQUIRE(plain.launches.size() == 2);
  REQUIRE(plain.launches[0]["diagnostics"].size() == 1);
  CHECK(plain.launches[0]["diagnostics"][0]["kind"] == "global-memory race");
  CHECK(plain.stderr_.find("volatile_shared_handoff.cu:35") != std::string::npos);  // the flag's read
  CHECK(plain.stderr_.find("watchdog") != std::string::npos);
}

TEST_CASE("a fenced spin lock between warps of one block is no race and counts every increment; unfenced it races") {
  auto e = exec(kTests + "fenced_spin_lock_block.cu");
  CHECK(e.run.status == 0);
  CHECK(e.run.out == "global counter 200, shared counter 200 (of 200): cudaSuccess, cudaSuccess\n");
  REQUIRE(e.launches.size() == 2);
  CHECK(e.launches[0]["diagnostics"].empty());
  CHECK(e.launches[1]["diagnostics"].empty());

  auto unfenced = exec(kTests + "fenced_spin_lock_block.cu", "-D NO_FENCE=1");
  CHECK(unfenced.run.status != 0);
  REQUIRE(unfenced.launches.size() == 2);
  REQUIRE(unfenced.launches[0]["diagnostics"].size() == 1);
  CHECK(unfenced.launches[0]["diagnostics"][0]["kind"] == "global-memory race");
  REQUIRE(unfenced.launches[1]["diagnostics"].size() == 1);
  CHECK(unfenced.launches[1]["diagnostics"][0]["kind"] == "shared-memory race");
  CHECK(unfenced.stderr_.find("fenced_spin_lock_block.cu:28") != std::string::npos);  // the counter's read
  CHECK(unfenced.stderr_.find("nor a fence and a flag (volatile or atomic) between their warps") != std::string::npos);
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
