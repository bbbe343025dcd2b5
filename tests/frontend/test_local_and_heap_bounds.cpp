// Bounds the GPU does not check but a learner needs named (issue 30): a local array
// indexed past its end (sim/compiler/pass/local_bounds.hpp) and an access past a device
// malloc block inside the heap (sim/memory/device_heap.hpp). Both stop the launch with
// cudaErrorIllegalAddress and name the line, the size and the offset.
#include "frontend_test_util.hpp"

using namespace simt::frontend_test;

TEST_CASE("a volatile local array written far past its end stops the launch at its line") {
  const Exec e = exec(kTests + "local_array_overrun.cu");
  CHECK(e.run.status == 1);
  CHECK(e.run.out == "cudaErrorIllegalAddress\n");
  CHECK(e.stderr_.find("out-of-bounds local access in kernel overrun, block (0,0,0), thread (0,0,0), at "
                       "tests/frontend/local_array_overrun.cu:10") != std::string::npos);
  CHECK(e.stderr_.find("out-of-bounds local write of 4 bytes at byte 400 of a 16-byte array declared in the kernel "
                       "(element 100 of 4)") != std::string::npos);
}

// (The program's argument after --, then exec's --json, which the program ignores.)
TEST_CASE("a local index before the array's start is reported; one inside it runs") {
  const Exec before = exec(kTests + "local_array_overrun.cu -- -1");
  CHECK(before.run.out == "cudaErrorIllegalAddress\n");
  CHECK(before.stderr_.find("at byte -4 of a 16-byte array declared in the kernel (element -1 of 4)") !=
        std::string::npos);
  const Exec inside = exec(kTests + "local_array_overrun.cu -- 3");
  CHECK(inside.run.status == 0);
  CHECK(inside.run.out == "cudaSuccess\n");
}

TEST_CASE("an access past a device malloc block inside the heap names the block's size and the offset") {
  const Exec e = exec(kTests + "heap_block_overrun.cu");
  CHECK(e.run.status == 1);
  CHECK(e.run.out == "cudaErrorIllegalAddress -1\n");
  CHECK(e.stderr_.find("out-of-bounds global access in kernel overrun") != std::string::npos);
  CHECK(e.stderr_.find("heap_block_overrun.cu:10") != std::string::npos);
  CHECK(e.stderr_.find("byte 40 of a 40-byte block from device malloc") != std::string::npos);
  CHECK(e.stderr_.find("nearest allocation: the device malloc heap") != std::string::npos);
  const Exec inside = exec(kTests + "heap_block_overrun.cu -- 10");
  CHECK(inside.run.status == 0);
  CHECK(inside.run.out == "cudaSuccess 10\n");
}
