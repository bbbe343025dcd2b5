// Device printf and the output of a program that crashes (sim/exec/device_output.cpp,
// sim/exec/crash_guard.cpp): nothing a program printed is lost.
#include "frontend_test_util.hpp"

using namespace simt::frontend_test;

TEST_CASE("device printf: %s of a string in global memory, widths and precisions, output in order") {
  auto e = exec(kTests + "device_printf_strings.cu");
  CHECK(e.run.status == 0);
  CHECK(e.run.out == "before\ndevice says hi, [    h] 42  |x 03.14 literal\nafter\n");
}

TEST_CASE("a crash keeps what the program printed before it") {
  auto e = exec(kTests + "crash_keeps_output.cu");
  CHECK(e.run.status == 3);
  CHECK(e.run.out == "before the crash\n");
  CHECK(e.stderr_.find("crash_keeps_output.cu:") != std::string::npos);
}
