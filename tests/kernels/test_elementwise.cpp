#include "run_kernel.hpp"

using simt::Counter;

TEST_CASE("map over a permuted view matches the reference") {
  KernelRun r = run_kernel("map");
  require_clean_pass(r);
}
