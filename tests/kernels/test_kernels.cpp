// Every registered kernel runs with its default parameters (what `simt run NAME`
// does), raises no diagnostic, and matches its CPU reference.
#include "run_kernel.hpp"

#include <chrono>

TEST_CASE("every registered kernel passes its check with default parameters") {
  // Issue 2, item 7: the HW1-level kernels.
  for (const char* name : {"vector_add", "map", "zip", "reduce_dim", "matmul_naive", "matmul_coalesced", "matmul_tiled",
                           "transpose_naive", "transpose_shared", "transpose_padded", "reduce_interleaved_divergent",
                           "reduce_interleaved_strided", "reduce_sequential", "reduce_warp_shuffle"})
    CHECK_NOTHROW(simt::kernels::find_kernel(name));
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
