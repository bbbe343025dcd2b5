// Every registered kernel runs with its default parameters (what `simt run NAME`
// does), raises no diagnostic, and matches its CPU reference.
#include "run_kernel.hpp"

#include <chrono>

TEST_CASE("every registered kernel passes its check with default parameters") {
  CHECK(simt::kernels::registry().size() >= 16);
  for (const simt::kernels::KernelSpec& spec : simt::kernels::registry()) {
    SUBCASE(spec.name.c_str()) {
      const auto start = std::chrono::steady_clock::now();
      KernelRun r = run_kernel(spec.name);
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      MESSAGE(spec.name << ": " << r.launches.size() << " launch(es), " << seconds << " s with counting");
      require_clean_pass(r);
    }
  }
}
