// Device clock64() and clock() on the simulated device (docs/exec.md, "Device clock").
#include "frontend_test_util.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <string>

using namespace simt::frontend_test;

TEST_CASE("device clock64()/clock(): monotonic in a thread, larger for a longer loop, synchronised at barriers") {
  Exec e = exec(kTests + "device_clock.cu");
  INFO(e.run.out << e.stderr_);
  CHECK(e.run.status == 0);
  CHECK(e.run.out.find("device clock OK") != std::string::npos);
  long long short_loop = 0, long_loop = 0;
  REQUIRE(std::sscanf(e.run.out.c_str(), "loop of 10: %lld cycles\nloop of 1000: %lld cycles", &short_loop, &long_loop) == 2);
  CHECK(short_loop > 0);
  // the loop body's instructions, 990 more times
  CHECK(long_loop > 20 * short_loop);
  CHECK(long_loop < 100000);
  // the counts are deterministic: a second run prints the same
  Exec again = exec(kTests + "device_clock.cu");
  CHECK(again.run.out == e.run.out);
}
