// Every registered kernel runs with its default parameters (what `simt run NAME`
// does), raises no diagnostic, and matches its CPU reference.
#include "run_kernel.hpp"

TEST_CASE("every registered kernel passes its check with default parameters") {
  // Issue 2, item 7: the HW1-level kernels.
  for (const char* name : {"vector_add", "map", "zip", "reduce_dim", "matmul_naive", "matmul_coalesced", "matmul_tiled",
                           "transpose_naive", "transpose_shared", "transpose_padded", "reduce_interleaved_divergent",
                           "reduce_interleaved_strided", "reduce_sequential", "reduce_warp_shuffle"})
    CHECK_NOTHROW(simt::kernels::find_kernel(name));
  for (const simt::kernels::KernelSpec& spec : simt::kernels::registry()) {
    SUBCASE(spec.name.c_str()) {
      const KernelRun& r = run_defaults(spec.name);
      MESSAGE(spec.name << ": " << r.launches.size() << " launch(es), " << r.seconds << " s with counting");
      require_clean_pass(r);
    }
  }
}
